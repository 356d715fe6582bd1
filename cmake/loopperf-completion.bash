# bash completion for loopperf, loopperf-gate, loopperf-measure and
# loopperf-models (installed as share/bash-completion/completions/<tool>).
# Options come from the tool's own --help, so they never go stale; --mcpu=
# completes the built-in model names.
_loopperf_complete() {
  local cur=${COMP_WORDS[COMP_CWORD]} tool=${COMP_WORDS[0]}
  case "$cur" in
  --mcpu=*)
    local models
    models=$("$tool" --list-models 2>/dev/null | cut -f1)
    COMPREPLY=($(compgen -P --mcpu= -W "$models" -- "${cur#--mcpu=}"))
    return ;;
  -*)
    local opts
    opts=$("$tool" --help 2>/dev/null | grep -o -- '--[A-Za-z0-9][A-Za-z0-9-]*=\?' | sort -u)
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace
    return ;;
  esac
  if [[ $COMP_CWORD -eq 1 ]]; then
    case "$tool" in
    *loopperf-gate) COMPREPLY=($(compgen -W "compare report --help --version" -- "$cur")); return ;;
    *loopperf-models) COMPREPLY=($(compgen -W "list check show --help --version" -- "$cur")); return ;;
    *loopperf-measure) COMPREPLY=($(compgen -W "asm kernel emit-harness calibrate host-isa" -- "$cur")) ;;
    esac
  fi
  COMPREPLY+=($(compgen -f -- "$cur"))
}
complete -o filenames -F _loopperf_complete loopperf loopperf-gate loopperf-measure loopperf-models
