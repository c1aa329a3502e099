# bash completion for icarectl                               -*- shell-script -*-

_icarectl()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi

    local commands="status start snooze skip pause resume history get set watch monitor help"
    local keys="Interval BreakDuration SnoozeDuration ActiveHours WeekdaysOnly DndPolicy Sound"
    local global="--help --version --no-color --generate-completion-script --generate-manual"

    # The command is the first word that is not an option.
    local i cmd="" cmdidx=0
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            -*) ;;
            *) cmd=${words[i]}; cmdidx=$i; break ;;
        esac
    done

    if [[ -z $cmd ]]; then
        if [[ $prev == --generate-completion-script ]]; then
            COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur"))
            return
        fi
        COMPREPLY=($(compgen -W "$commands $global" -- "$cur"))
        return
    fi

    case $cmd in
        status)
            case $prev in
                --format) COMPREPLY=($(compgen -W "waybar plain" -- "$cur")); return ;;
            esac
            COMPREPLY=($(compgen -W "--format --follow --json --help" -- "$cur"))
            ;;
        snooze)
            COMPREPLY=($(compgen -W "5m 10m 15m 30m --help" -- "$cur"))
            ;;
        pause)
            if [[ $prev == until ]]; then
                return
            fi
            COMPREPLY=($(compgen -W "until 15m 30m 1h 2h --help" -- "$cur"))
            ;;
        history)
            case $prev in
                --days) COMPREPLY=($(compgen -W "7 14 30" -- "$cur")); return ;;
            esac
            COMPREPLY=($(compgen -W "today yesterday --days --json --help" -- "$cur"))
            ;;
        get)
            COMPREPLY=($(compgen -W "$keys --json --help" -- "$cur"))
            ;;
        set)
            local nargs=$((cword - cmdidx))
            if ((nargs == 1)); then
                COMPREPLY=($(compgen -W "$keys --help" -- "$cur"))
            elif ((nargs == 2)); then
                case ${words[cmdidx+1],,} in
                    dndpolicy) COMPREPLY=($(compgen -W "pause defer ignore" -- "$cur")) ;;
                    weekdaysonly|sound) COMPREPLY=($(compgen -W "true false" -- "$cur")) ;;
                    interval) COMPREPLY=($(compgen -W "15m 20m 25m 30m 45m" -- "$cur")) ;;
                    breakduration) COMPREPLY=($(compgen -W "10s 20s 30s" -- "$cur")) ;;
                    snoozeduration) COMPREPLY=($(compgen -W "1m 5m 10m 30m" -- "$cur")) ;;
                    activehours) COMPREPLY=($(compgen -W "09:00-17:30 ''" -- "$cur")) ;;
                esac
            fi
            ;;
        monitor)
            COMPREPLY=($(compgen -W "--json --help" -- "$cur"))
            ;;
        help)
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
            ;;
        start|skip|resume|watch)
            COMPREPLY=($(compgen -W "--help" -- "$cur"))
            ;;
    esac
} &&
    complete -F _icarectl icarectl

# ex: filetype=sh
