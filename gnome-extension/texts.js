// The words of the ring: the same as the panel item's
// (Sources/StatusItem/StatusItemTexts.swift), in iCare's gettext domain.
// `t` is the extension: its gettext and ngettext use metadata.json's domain.

/**
 * The text beside the ring: the minutes to the next break, the break's seconds.
 *
 * @param {object} t - the extension
 * @param {object} face - from faceOf
 * @returns {string}
 */
export function label(t, face) {
    if (face.secondsLeft === null)
        return face.look === 'due' ? t.gettext('Break due') : '';
    if (face.look === 'break')
        return t.gettext('%d s').format(face.secondsLeft);
    return t.gettext('%d min').format(Math.max(1, Math.ceil(face.secondsLeft / 60)));
}

/**
 * The status in a few words: the menu's first line.
 *
 * @param {object} t - the extension
 * @param {object} status - icared's properties
 * @param {Function} clock - a time (µs) as the clock shows it
 * @returns {string}
 */
export function headline(t, status, clock) {
    switch (status.state) {
    case 'waiting':
        return t.gettext('Next break at %s').format(clock(status.nextBreak));
    case 'snoozed':
        return t.gettext('Snoozed until %s').format(clock(status.nextBreak));
    case 'due':
        return t.gettext('Time for an eye break');
    case 'break':
        return t.gettext('Break until %s').format(clock(status.breakEnds));
    case 'paused':
        switch (status.pauseReason) {
        case 'dnd':
            return t.gettext('Paused — do not disturb');
        case 'locked':
            return t.gettext('Paused — screen locked');
        case 'busy':
            if (status.busySource === 'full-screen')
                return t.gettext('Paused — a window is in full screen');
            return t.gettext('Paused — in a call or a video');
        default:
            if (status.pausedUntil > 0)
                return t.gettext('Paused until %s').format(clock(status.pausedUntil));
            return t.gettext('Paused');
        }
    default:
        if (status.nextBreak > 0)
            return t.gettext('Outside active hours · next break at %s').format(clock(status.nextBreak));
        return t.gettext('Outside active hours');
    }
}

/**
 * What the ring shows, for screen readers.
 *
 * @param {object} t - the extension
 * @param {object} status - icared's properties
 * @param {object} face - from faceOf
 * @param {Function} clock - a time (µs) as the clock shows it
 * @returns {string}
 */
export function accessibleName(t, status, face, clock) {
    const seconds = face.secondsLeft || 0;
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    switch (status.state) {
    case 'waiting':
        return t.ngettext('Next break in %d minute', 'Next break in %d minutes', minutes).format(minutes);
    case 'snoozed':
        return t.ngettext('Snoozed: next break in %d minute', 'Snoozed: next break in %d minutes', minutes).format(minutes);
    case 'due':
        return t.gettext('Break due');
    case 'break':
        return t.ngettext('Break: %d second left', 'Break: %d seconds left', seconds).format(seconds);
    default:
        return headline(t, status, clock);
    }
}

/**
 * Today's breaks.
 *
 * @param {object} t - the extension
 * @param {object} status - icared's properties
 * @returns {string}
 */
export function tally(t, status) {
    // The same words as icared's and icarectl's (TallyText): missed only when a reminder went unanswered.
    const counts = status.missedToday > 0
        ? t.gettext('%d completed, %d skipped, %d missed').format(status.completedToday, status.skippedToday, status.missedToday)
        : t.gettext('%d completed, %d skipped').format(status.completedToday, status.skippedToday);
    return t.gettext('Today: %s').format(counts);
}

/**
 * The snooze item, with the snooze's length.
 *
 * @param {object} t - the extension
 * @param {number} seconds - SnoozeDuration
 * @returns {string}
 */
export function snooze(t, seconds) {
    if (seconds % 60 === 0)
        return t.gettext('Snooze %d min').format(seconds / 60);
    return t.gettext('Snooze %d s').format(seconds);
}

/**
 * Whether something a person would expect does not work here: an entry of
 * icared's Capabilities, a(sss) of name, state and words, that is missing.
 * The menu then offers the app's page "This desktop", as the panel item does.
 *
 * @param {Array<Array<string>>} capabilities - Capabilities, unpacked
 * @returns {boolean}
 */
export function cannotSee(capabilities) {
    return capabilities.some(([, state]) => state === 'missing');
}
