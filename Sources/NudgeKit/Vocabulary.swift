// What every face speaks comes with NudgeKit: the core's values (Alert, Schedule, Water…)
// and the translated messages (tr, format, Language). What lies under the operations (the
// store, the bus, the system calls) does not: a face reaches those through NudgeKit.
@_exported import Localization
@_exported import NudgeCore
