# bash completion for warpscope-cli: its commands, each command's options (as its --help lists
# them; tests/desktop/completion.sh checks), the values of options that take a word from a list,
# and sessions (*.jsonl) or kernel sources (*.cu) where a file is asked for.
# SPDX-License-Identifier: GPL-3.0-or-later

_warpscope_cli_options()
{
  case $1 in
    run) echo "--help --kernel --source --param --memcheck --sizes --blocks --transfer --reps
               --warmup --counters --cache --cpu --cpu-reps --cpu-budget --device --devices --seed
               --no-trace --output --target --launcher --remote-shell --runner --timeout
               --quiet --verbose" ;;
    trace) echo "--help --output --sweep --env --cwd --timeout --no-ceilings --target --launcher
                 --remote-shell --runner --severity --width --quiet --verbose" ;;
    report) echo "--help --format --width --severity" ;;
    devices) echo "--help --target --launcher --remote-shell --runner --timeout --verbose" ;;
    kernels) echo "--help --target --launcher --remote-shell --runner --verbose" ;;
    occupancy) echo "--help --arch --block --regs --smem --list-archs" ;;
    replay) echo "--help --speed" ;;
    export) echo "--help --chart --format --output --width --height --scale --theme --run
                  --compare --annotate" ;;
    merge) echo "--help --output" ;;
    check) echo "--help --arch --header-only --launcher --remote-shell --runner --timeout
                 --verbose" ;;
    targets-add) echo "--help --ssh --srun --sbatch --command --host --port --ssh-options
                       --runner --env --pending-timeout --job-dir --remote-shell" ;;
    targets) echo "--help" ;;
  esac
}

# Files ending in $1, and folders to look into.
_warpscope_cli_files()
{
  local IFS=$'\n'

  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -f -X "!*$1" -- "$cur") $(compgen -d -- "$cur"))
}

_warpscope_cli()
{
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local commands="run trace report devices kernels occupancy replay export targets merge check
                  help"
  local command=${COMP_WORDS[1]} i

  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi
  # A program traced takes its own arguments after "--".
  for ((i = 2; i < COMP_CWORD; i++)); do
    [[ ${COMP_WORDS[i]} == -- ]] && { COMPREPLY=($(compgen -f -- "$cur")); return; }
  done

  case $prev in
    -c | --chart)
      COMPREPLY=($(compgen -W "timeline speedup blocks occupancy breakdown roofline params" -- "$cur"))
      return ;;
    -f | --format)
      if [[ $command == report ]]; then
        COMPREPLY=($(compgen -W "table csv json markdown" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "png svg pdf csv trace" -- "$cur"))
      fi
      return ;;
    -t | --theme | --target)
      if [[ $command == export ]]; then
        COMPREPLY=($(compgen -W "light dark print" -- "$cur"))
      fi
      return ;;
    -s | --severity)
      [[ $command == occupancy ]] && return
      COMPREPLY=($(compgen -W "info low medium high" -- "$cur"))
      return ;;
    --transfer) COMPREPLY=($(compgen -W "pageable pinned pageable,pinned" -- "$cur")); return ;;
    --cache) COMPREPLY=($(compgen -W "warm cold" -- "$cur")); return ;;
    --counters) COMPREPLY=($(compgen -W "basic memory stalls all" -- "$cur")); return ;;
    --cpu) COMPREPLY=($(compgen -W "none 1 all 1,all" -- "$cur")); return ;;
    --memcheck) COMPREPLY=($(compgen -W "memcheck racecheck initcheck" -- "$cur")); return ;;
    --source) _warpscope_cli_files .cu; return ;;
    -o | --output | --runner | --cwd | --job-dir)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$cur"))
      return ;;
    -k | --kernel | --param | --sizes | --blocks | --reps | --warmup | --cpu-reps | --cpu-budget | \
      -d | --device | -D | --devices | --seed | -l | --launcher | --timeout | --sweep | --env | \
      -e | -w | --width | -H | --height | -W | --scale | -r | --run | --compare | -a | --arch | \
      -b | --block | --regs | --smem | -x | --speed | --ssh | --srun | --sbatch | --command | \
      --host | -p | --port | --ssh-options | --pending-timeout)
      return ;; # a value of one's own
  esac

  if [[ $command == targets ]]; then
    if ((COMP_CWORD == 2)); then
      COMPREPLY=($(compgen -W "list add remove --help" -- "$cur"))
      return
    fi
    [[ ${COMP_WORDS[2]} == add ]] && command=targets-add
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_warpscope_cli_options "$command")" -- "$cur"))
    return
  fi
  case $command in
    help) ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
    report | replay | export | merge) _warpscope_cli_files .jsonl ;;
    check) _warpscope_cli_files .cu ;;
    trace) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -c -f -- "$cur")) ;;
  esac
}

complete -F _warpscope_cli warpscope-cli
