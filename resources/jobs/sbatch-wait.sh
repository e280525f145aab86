d=${1:-$HOME/.cache/warpscope/jobs}; cmd=$2; shift 2
case $d in "~/"*) d=$HOME/${d#"~/"} ;; esac
mkdir -p "$d" && out=$(mktemp "$d/job-XXXXXXXX") || exit 1
job= s= sent=0 state=
trap '[ -n "$job" ] && scancel "$job" 2>/dev/null; [ -n "$s" ] && kill $s 2>/dev/null; rm -f "$out" "$out.err" "$out.id"; exit 143' TERM INT HUP
sbatch --wait --parsable --job-name=warpscope -o "$out" -e "$out.err" "$@" --wrap="$cmd" >"$out.id" & s=$!
follow() {
  size=$(($(wc -c 2>/dev/null <"$out" || echo 0)))
  if [ "$size" -gt "$sent" ]; then
    tail -c +$((sent + 1)) "$out" | head -c $((size - sent)); sent=$size
  fi
}
ended() { tail -n 1 "$out" 2>/dev/null | grep -q '"type":"done"'; }
while kill -0 $s 2>/dev/null; do
  if [ -z "$job" ] && [ -s "$out.id" ]; then job=$(cut -d';' -f1 "$out.id"); fi
  if [ -n "$job" ] && [ "$state" != running ]; then
    case $(squeue -h -j "$job" -o %T 2>/dev/null) in
      PENDING) [ -z "$state" ] && echo "sbatch: job $job queued and waiting for resources" >&2; state=pending ;;
      *) [ "$state" = pending ] && echo "sbatch: job $job has been allocated resources" >&2; state=running ;;
    esac
  fi
  follow; ended && break; sleep 1
done
if ended; then
  kill $s 2>/dev/null; s=
  rc=$(tail -n 1 "$out" | sed -n 's/.*"exit_code":\([0-9]*\).*/\1/p'); rc=${rc:-0}
else
  wait $s; rc=$?; s=
  n=0
  while [ -n "$job" ] && [ $n -lt 10 ] && ! ended; do sleep 1; n=$((n + 1)); done
fi
follow
[ -s "$out.err" ] && cat "$out.err" >&2
rm -f "$out" "$out.err" "$out.id"
exit $rc
