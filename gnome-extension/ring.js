// The ring: what it shows for a status of icared (pure, the time given) and
// how it is drawn. The same looks, colours and steps as the panel item's
// ring (Sources/RingDrawing/RingFace.swift and RingRenderer.swift).

const MICRO = 1000000;

/** How many steps a wait between breaks is drawn in, as the panel item does. */
const INTERVAL_STEPS = 60;

/** The filled arc's colour for each look, as [r, g, b]. */
const COLOURS = {
    waiting: [0x35, 0x84, 0xE4],
    due: [0xE6, 0x61, 0x00],
    break: [0x2E, 0xC2, 0x7E],
    snoozed: [0xE5, 0xA5, 0x0A],
    paused: [0x9A, 0x99, 0x96],
    inactive: [0x9A, 0x99, 0x96],
};

/** The unfilled part of the ring: a faint grey, on light and dark panels. */
const TRACK = [0x9A, 0x99, 0x96, 0x60 / 0xFF];

/**
 * The ring for `look` with the share still to go stepped in `steps`,
 * counting down to `end`, and the wall time (µs) it next changes at: its
 * step, or the minutes (the seconds in a break) it shows in figures.
 *
 * @param {string} look - waiting, snoozed or break
 * @param {number} left - µs to go
 * @param {number} total - µs the countdown lasts
 * @param {number} steps - how many steps it is drawn in
 * @param {number} end - when it ends (µs since the epoch)
 * @returns {object} the face
 */
function stepped(look, left, total, steps, end) {
    if (total <= 0)
        return {look, fraction: 0, secondsLeft: 0, nextChange: null};
    const clamped = Math.min(left, total);
    const step = Math.floor((clamped * steps + total - 1) / total);
    const seconds = Math.ceil(left / MICRO);
    const changes = [];
    if (step > 1)
        changes.push(end - Math.floor((step - 1) * total / steps));
    if (look === 'break' && seconds > 1)
        changes.push(end - (seconds - 1) * MICRO);
    const minutes = Math.ceil(seconds / 60);
    if (look !== 'break' && minutes > 1)
        changes.push(end - (minutes - 1) * 60 * MICRO);
    return {
        look,
        fraction: step / steps,
        secondsLeft: seconds,
        nextChange: changes.length > 0 ? Math.min(...changes) : null,
    };
}

/**
 * What the ring shows for `status` at `now` (µs since the epoch).
 *
 * @param {object} status - icared's properties, times in µs; interval and
 *   snooze already divided by the time scale, breakLength in µs
 * @param {number} now - the wall time
 * @returns {object} look, fraction (0…1), secondsLeft (or null) and
 *   nextChange (µs, or null when only icared's next signal changes it)
 */
export function faceOf(status, now) {
    switch (status.state) {
    case 'waiting':
    case 'snoozed': {
        const left = Math.max(0, status.nextBreak - now);
        // A snooze of a custom length is drawn against the longer of it and the default.
        const total = status.state === 'waiting' ? status.interval : Math.max(status.snooze, left);
        return stepped(status.state, left, total, INTERVAL_STEPS, status.nextBreak);
    }
    case 'break': {
        const left = Math.max(0, status.breakEnds - now);
        const steps = Math.max(1, Math.floor(status.breakLength / MICRO));
        return stepped('break', left, status.breakLength, steps, status.breakEnds);
    }
    case 'due':
        return {look: 'due', fraction: 1, secondsLeft: null, nextChange: null};
    case 'paused':
        return {look: 'paused', fraction: 0, secondsLeft: null, nextChange: null};
    default:
        return {look: 'inactive', fraction: 0, secondsLeft: null, nextChange: null};
    }
}

/**
 * Draws `face` into a St.DrawingArea on its repaint: the track, the filled
 * arc clockwise from twelve o'clock, a dot when due, two bars when paused.
 *
 * @param {object} area - the St.DrawingArea
 * @param {object} face - from faceOf
 * @param {number} opacity - 1, or less when icared is not there
 */
export function drawRing(area, face, opacity) {
    const cr = area.get_context();
    const [width, height] = area.get_surface_size();
    const size = Math.min(width, height);
    const outer = size / 2 - 0.5;
    const inner = outer - Math.max(2, size * 0.16);
    const [r, g, b] = COLOURS[face.look] || COLOURS.inactive;
    let filled = face.look === 'due' ? 1 : face.fraction;
    if (face.look === 'paused' || face.look === 'inactive')
        filled = 0;
    const top = -Math.PI / 2;
    const end = top + 2 * Math.PI * filled;

    cr.translate(width / 2, height / 2);
    cr.setLineWidth(outer - inner);
    const radius = (outer + inner) / 2;
    if (filled < 1) {
        cr.setSourceRGBA(TRACK[0] / 255, TRACK[1] / 255, TRACK[2] / 255, TRACK[3] * opacity);
        cr.arc(0, 0, radius, end, top + 2 * Math.PI);
        cr.stroke();
    }
    cr.setSourceRGBA(r / 255, g / 255, b / 255, opacity);
    if (filled > 0) {
        cr.arc(0, 0, radius, top, end);
        cr.stroke();
    }
    if (face.look === 'due') {
        cr.arc(0, 0, inner * 0.5, 0, 2 * Math.PI);
        cr.fill();
    } else if (face.look === 'paused') {
        // Two bars, each 0.12 of the size wide and 0.34 high, 0.12 apart.
        const half = size * 0.17, bar = size * 0.12, gap = size * 0.06;
        cr.rectangle(-gap - bar, -half, bar, 2 * half);
        cr.rectangle(gap, -half, bar, 2 * half);
        cr.fill();
    }
    cr.$dispose();
}
