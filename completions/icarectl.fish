# fish completion for icarectl

set -l commands status start snooze skip pause resume history get set watch monitor help
set -l keys Interval BreakDuration SnoozeDuration ActiveHours WeekdaysOnly DndPolicy Sound

complete -c icarectl -f
complete -c icarectl -s h -l help -d 'Show help'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -l version -d 'Show the version'
complete -c icarectl -l no-color -d 'No colour'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -l generate-completion-script -x -a 'bash zsh fish' -d 'Print a completion script'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -l generate-manual -d 'Print the icarectl(1) man page'

complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a status -d 'Show the state and the time to the next break'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a start -d 'Start a break now'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a snooze -d 'Postpone the reminder'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a skip -d 'Skip the due or next break'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a pause -d 'Pause reminders'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a resume -d 'End a pause'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a history -d 'Breaks of a day, or a chart of days'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a get -d 'Print settings'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a set -d 'Change a setting'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a watch -d 'Live full-screen view'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a monitor -d 'Print every event of the service'
complete -c icarectl -n "not __fish_seen_subcommand_from $commands" -a help -d 'Show help for a command'
complete -c icarectl -n '__fish_seen_subcommand_from help' -a "$commands"

complete -c icarectl -n '__fish_seen_subcommand_from status' -l format -x -a 'waybar plain' -d 'Output format'
complete -c icarectl -n '__fish_seen_subcommand_from status' -l follow -d 'A new line at every change'
complete -c icarectl -n '__fish_seen_subcommand_from status history get monitor' -l json -d 'Print JSON'
complete -c icarectl -n '__fish_seen_subcommand_from snooze' -a '5m 10m 15m 30m'
complete -c icarectl -n '__fish_seen_subcommand_from pause; and not __fish_seen_subcommand_from until' -a 'until 15m 30m 1h 2h'
complete -c icarectl -n '__fish_seen_subcommand_from history' -a 'today yesterday' -d 'Breaks of that day'
complete -c icarectl -n '__fish_seen_subcommand_from history' -l days -x -a '7 14 30' -d 'Chart of the last N days'
complete -c icarectl -n '__fish_seen_subcommand_from get' -a "$keys"

# set KEY VALUE
function __icarectl_set_key
    set -l tokens (commandline -opc)
    set -l i (contains -i -- set $tokens)
    and test (count $tokens) -eq (math $i + 1)
    and string lower -- $tokens[-1]
end
complete -c icarectl -n '__fish_seen_subcommand_from set; and test (count (commandline -opc)) -eq (math (contains -i -- set (commandline -opc)) + 0)' -a "$keys"
complete -c icarectl -n 'test "$(__icarectl_set_key)" = dndpolicy' -a 'pause defer ignore'
complete -c icarectl -n 'test "$(__icarectl_set_key)" = weekdaysonly; or test "$(__icarectl_set_key)" = sound' -a 'true false'
complete -c icarectl -n 'test "$(__icarectl_set_key)" = interval' -a '15m 20m 25m 30m 45m'
complete -c icarectl -n 'test "$(__icarectl_set_key)" = breakduration' -a '10s 20s 30s'
complete -c icarectl -n 'test "$(__icarectl_set_key)" = snoozeduration' -a '1m 5m 10m 30m'
