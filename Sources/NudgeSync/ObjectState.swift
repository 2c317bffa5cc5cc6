import ICalendar

/// What one calendar object needs, from the three copies of it: the last one both sides
/// agreed on (`base`, kept in the store), ours (what the reminder is here now) and theirs
/// (what the server holds now). `nil` is "there is none": never made, or deleted.
///
/// The object's state is read from which copies differ: synced (all alike), new here,
/// new there, changed here, changed there, changed on both sides, deleted here, deleted
/// there. Each has one decision, and none loses a side's change: a deletion meets an edit
/// and the edit wins; both sides' edits are merged by property, the server's value kept
/// where both changed the same one and ours named as a conflict.
public enum ObjectState: Sendable, Equatable {
    case synced
    case newHere
    case newThere
    case changedHere
    case changedThere
    case changedOnBoth
    case deletedHere
    case deletedThere
    /// Gone on both sides, or made alike on both: nothing to send, only the store to update.
    case alike

    /// The state of the three copies.
    public init(base: Component?, ours: Component?, theirs: Component?) {
        switch (base, ours, theirs) {
        case (_, let o, let t) where o == t: self = o == base ? .synced : .alike
        case (nil, _?, nil): self = .newHere
        case (nil, nil, _?): self = .newThere
        case (nil, _, _): self = .changedOnBoth
        case (let b?, let o, let t):
            if o == b { self = t == nil ? .deletedThere : .changedThere } else if t == b {
                self = o == nil ? .deletedHere : .changedHere
            } else {
                self = .changedOnBoth
            }
        }
    }
}

/// What to do for one object.
public struct ObjectDecision: Sendable, Equatable {
    /// What to write to the server (`nil`: nothing), and whether it is new there.
    public var send: Component?
    /// Whether to delete it on the server.
    public var deleteThere = false
    /// What the reminder here becomes (`nil` with `deleteHere` off: unchanged).
    public var take: Component?
    /// Whether to remove it here.
    public var deleteHere = false
    /// The copy both sides hold once this is done (`nil`: gone from both).
    public var agreed: Component?
    /// What both sides changed differently (the server's kept): `SUMMARY`, `deleted here`.
    public var conflicts: [String] = []
    /// The state of the copies it was decided from.
    public var state: ObjectState = .synced

    /// The decision for `state` of the copies.
    public static func decide(base: Component?, ours: Component?, theirs: Component?) -> ObjectDecision {
        let state = ObjectState(base: base, ours: ours, theirs: theirs)
        var decision = ObjectDecision()
        decision.state = state
        switch state {
        case .synced:
            decision.agreed = base
        case .alike:
            decision.agreed = ours
        case .newHere, .changedHere:
            decision.send = ours
            decision.agreed = ours
        case .newThere, .changedThere:
            decision.take = theirs
            decision.agreed = theirs
        case .deletedHere:
            decision.deleteThere = true
        case .deletedThere:
            decision.deleteHere = true
        case .changedOnBoth:
            switch (ours, theirs) {
            case (nil, let t?) where base.map(AlarmAnswers.withoutAnswers) == AlarmAnswers.withoutAnswers(t):
                // Deleted here, only answered there (acknowledged, snoozed): the deletion stands.
                decision.deleteThere = true
            case (nil, let t?):
                // Deleted here, changed there: the change is kept, here too.
                decision.take = t
                decision.agreed = t
                decision.conflicts = ["deleted here"]
            case (let o?, nil):
                // Changed here, deleted there: ours goes back.
                decision.send = o
                decision.agreed = o
                decision.conflicts = ["deleted there"]
            case (let o?, let t?):
                let outcome = ObjectMerge.merge(base: base ?? Component(t.name), ours: o, theirs: t)
                decision.conflicts = outcome.conflicts
                decision.agreed = outcome.merged
                if outcome.merged != t { decision.send = outcome.merged }
                if outcome.merged != o { decision.take = outcome.merged }
            case (nil, nil):
                break
            }
        }
        return decision
    }
}
