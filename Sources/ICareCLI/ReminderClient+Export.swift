// The client of org.icare.Reminder that icarectl shares with the app (Sources/ReminderClient):
// re-exported, so that ICareCLI's users see its types (ServiceStatus, LiveFeed, TimeText…) as before.
@_exported import ReminderClient
