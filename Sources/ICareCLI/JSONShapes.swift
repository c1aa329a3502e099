// The JSON that `--json` prints: a stable contract for scripts.
//
// Every reading command prints one JSON object on one line (`monitor --json`
// and `status --json --follow`: one object per line). Keys keep the order
// below; new keys may be added at the end of an object, none is removed or
// retyped within a major version. Times come in pairs: `<name>` is ISO 8601
// local time with the UTC offset ("2024-11-29T14:32:05+01:00", null when
// none) and `<name>_us` the same instant in µs since the Unix epoch (0 when
// none), as on D-Bus. Durations are whole seconds.
//
// status --json
//   {"running":true,"state":"waiting","pause_reason":"",
//    "next_break":ISO|null,"next_break_us":N,"seconds_to_next_break":N,
//    "break_ends":ISO|null,"break_ends_us":N,"paused_until":ISO|null,"paused_until_us":N,
//    "completed_today":N,"skipped_today":N,"missed_today":N,"do_not_disturb":false,"do_not_disturb_source":"",
//    "service_version":"…","now":ISO,"now_us":N,"config_problems":["…"],
//    "busy":false,"busy_source":"","busy_reason":"","desktop_eye_breaks":false,
//    "sound_played_by":"icared","phones":["Pixel 7 (KDE Connect)"],"sandbox_limits":["…"]}
//   config_problems: the service's ConfigProblems, [] when the config file is fine.
//   busy, busy_source, busy_reason: Busy, BusySource ("" | camera | microphone |
//   screen-share | video) and BusyReason; desktop_eye_breaks: DesktopEyeBreaks;
//   sound_played_by: SoundPlayedBy (notification-server | icared | none; "" from an older service).
//   phones: Phones, the phones the service can remind ([] when none, or from an older service).
//   sandbox_limits: SandboxLimits, what cannot work now in the Flatpak's sandbox or the unit's ([] when nothing).
//   With --follow, while the service is not running: {"running":false,"now":ISO,"now_us":N}
//   While another login's icared keeps the breaks (KeptBy):
//   {"running":true,"kept_by":"icared (process 4242) on desk","service_version":"…","now":ISO,"now_us":N}
//   state: waiting | due | break | snoozed | paused | inactive;
//   pause_reason: "" | user | dnd | locked | busy.
//
// status --format waybar (waybar's custom module, return-type json)
//   {"text":"13m","alt":STATE,"tooltip":"…","class":STATE,"percentage":0-100}
//   Not running (with --follow): text "", alt and class "stopped"; kept by another
//   login's icared: text "", alt and class "elsewhere", the tooltip saying which.
//
// get --json, get KEY --json (only that key)
//   {"Interval":1200,"BreakDuration":20,"SnoozeDuration":300,"ActiveHours":"",
//    "WeekdaysOnly":false,"DndPolicy":"pause","Sound":true,"BusyPolicy":"defer","StatusItem":true,
//    "PhoneReminders":false,"FullScreenReminders":false}
//
// history [DAY] --json
//   {"date":"2024-11-29","from":ISO,"from_us":N,"to":ISO,"to_us":N,
//    "breaks":[{"at":ISO,"at_us":N,"outcome":"completed","seconds":20}, …],
//    "completed":N,"skipped":N,"missed":N}
//   outcome: completed | skipped | missed | natural | (newer outcomes pass through);
//   skipped: Skip pressed; missed: a reminder left unanswered for a whole interval
//   (icared before 0.6 wrote those as skipped);
//   "completed" counts completed and natural, as CompletedToday does.
//
// history --days N --json
//   {"from":ISO,"from_us":N,"to":ISO,"to_us":N,
//    "days":[{"date":"2024-11-23","completed":N,"natural":N,"skipped":N,"missed":N,"other":N}, …],
//    "completed":N,"skipped":N,"missed":N}
//
// monitor --json (one line per event)
//   {"when":ISO,"when_us":N,"kind":"signal","name":"BreakStarted","time":ISO,"time_us":N}
//   {"when":ISO,"when_us":N,"kind":"property","name":"State","value":"break"}
//       (times also "value_iso":ISO|null; numbers and booleans as JSON numbers and booleans)
//   {"when":ISO,"when_us":N,"kind":"service","name":"org.icare.Reminder","running":true}
//
// doctor --json
//   {"capabilities":[{"name":"reminder-buttons","state":"works","words":"…"}, …],
//    "sandbox_limits":["…"],"failing":N}
//   name: reminder-buttons | do-not-disturb | time-away | calls | ring | sounds | phones | login | sandbox;
//   state: works | limited | missing | off; failing: how many are limited or missing (exit status 1 then).

/// The shapes above, for the man page: each as lines of at most 64
/// characters, so that the section reads at 80 columns (a test renders it).
public enum JSONShapes {
    public static let summary: [(String, [String])] = [
        ("status --json", [
            #"{"running":true,"state":"waiting","pause_reason":"","#,
            #" "next_break":ISO|null,"next_break_us":N,"#,
            #" "seconds_to_next_break":N,"#,
            #" "break_ends":ISO|null,"break_ends_us":N,"#,
            #" "paused_until":ISO|null,"paused_until_us":N,"#,
            #" "completed_today":N,"skipped_today":N,"missed_today":N,"#,
            #" "do_not_disturb":false,"do_not_disturb_source":"","#,
            #" "service_version":"...","now":ISO,"now_us":N,"#,
            #" "config_problems":["..."],"#,
            #" "busy":false,"busy_source":"","busy_reason":"","#,
            #" "desktop_eye_breaks":false,"sound_played_by":"icared","#,
            #" "phones":["Pixel 7 (KDE Connect)"],"sandbox_limits":["..."]}"#,
            #"Kept by another login's icared:"#,
            #"{"running":true,"kept_by":"icared (process 4242) on desk","#,
            #" "service_version":"...","now":ISO,"now_us":N}"#,
        ]),
        ("status --format waybar", [
            #"{"text":"13m","alt":STATE,"tooltip":"...","class":STATE,"#,
            #" "percentage":0-100}"#,
        ]),
        ("get --json", [
            #"{"Interval":1200,"BreakDuration":20,"SnoozeDuration":300,"#,
            #" "ActiveHours":"","WeekdaysOnly":false,"DndPolicy":"pause","#,
            #" "Sound":true,"BusyPolicy":"defer","StatusItem":true,"#,
            #" "PhoneReminders":false,"FullScreenReminders":false}"#,
        ]),
        ("history DAY --json", [
            #"{"date":"YYYY-MM-DD","from":ISO,"from_us":N,"#,
            #" "to":ISO,"to_us":N,"#,
            #" "breaks":[{"at":ISO,"at_us":N,"outcome":"completed","#,
            #"            "seconds":20}],"#,
            #" "completed":N,"skipped":N,"missed":N}"#,
        ]),
        ("history --days N --json", [
            #"{"from":ISO,"from_us":N,"to":ISO,"to_us":N,"#,
            #" "days":[{"date":"YYYY-MM-DD","completed":N,"natural":N,"#,
            #"          "skipped":N,"missed":N,"other":N}],"#,
            #" "completed":N,"skipped":N,"missed":N}"#,
        ]),
        ("monitor --json", [
            #"{"when":ISO,"when_us":N,"#,
            #" "kind":"signal"|"property"|"service","name":"...",...}"#,
        ]),
        ("doctor --json", [
            #"{"capabilities":[{"name":"reminder-buttons","#,
            #"                  "state":"works","words":"..."}],"#,
            #" "sandbox_limits":["..."],"failing":N}"#,
        ]),
    ]
}
