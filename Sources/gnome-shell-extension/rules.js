// SPDX-License-Identifier: GPL-2.0-or-later
// The extension's words and rules, apart from the Shell: what the tray's Swift rules do too, tested against the
// same table of cases (`Tests/Cases/indicator-rules.json`, by `Tests/Cases/check-extension-rules.js`), and the
// service's records as plain objects. One of the five parts the build joins into `indicator.js` (rules, service,
// menu, notices, indicator).

/// The texts for people, in the session's language: the extension's gettext functions, which `start` takes from
/// the Shell (its catalogs are the project's, `po/`, in the build's `locale/` folder); English until then, as the
/// rules' checker runs them.
var _ = text => text;
var ngettext = (one, many, count) => count === 1 ? one : many;

/// A translated text's placeholders filled, as Swift's `localized` fills them: `%s` and `%d` in order, `%2$s` by
/// number, `%%` a percent sign.
function fill(template, ...values) {
    let next = 0;
    return template.replace(/%(?:(\d+)\$)?([sd%])/g, (_match, position, conversion) => {
        if (conversion === '%')
            return '%';
        const value = values[position ? Number(position) - 1 : next++];
        return value === undefined ? '' : String(value);
    });
}

/// The session's decimal separator: "1,2" in German, as Swift's `LocalFormats.tenths` writes it.
function tenths(count) {
    const separator = new Intl.NumberFormat().formatToParts(1.5).find(part => part.type === 'decimal')?.value ?? '.';
    return `${Math.floor(count / 10)}${separator}${count % 10}`;
}

/// The overall percent of the tray and `watch`: bytes moved of all the bytes to move when every activity has a
/// total, otherwise the mean of the known percents; rounded down (Swift's `OverallProgress`). These rules and the
/// Swift ones are tested against one table of cases, `Tests/Cases/indicator-rules.json`.
function overallPercent(activities) {
    if (activities.length === 0)
        return null;
    if (activities.every(activity => (activity.total ?? 0) > 0)) {
        const done = activities.reduce((sum, a) => sum + Math.min(a.done ?? 0, a.total), 0);
        const total = activities.reduce((sum, a) => sum + a.total, 0);
        return Math.min(100, Math.floor(done * 100 / total));
    }
    const known = activities.map(a => a.percent).filter(percent => percent !== undefined);
    if (known.length === 0)
        return null;
    return Math.floor(known.reduce((sum, percent) => sum + Math.min(percent, 100), 0) / known.length);
}

/// Bytes as people read them, in powers of a thousand to one decimal: `999 B`, `1.2 MB` (Swift's `ByteAmount`).
function byteAmount(bytes) {
    if (bytes < 1000)
        return `${bytes} B`;
    let value = bytes;
    for (const unit of ['kB', 'MB', 'GB', 'TB', 'PB']) {
        value /= 1000;
        if (value < 999.95 || unit === 'PB') {
            return `${tenths(Math.round(value * 10))} ${unit}`;
        }
    }
    return `${bytes} B`;
}

/// What a speed limit holds an app to (`netactivity limit`): "limited to 2.0 MB/s down", "limited to 1.0 MB/s"
/// both ways; null for none (Swift's `ActivityStatus.limitText`).
function limitText({limitDown, limitUp}) {
    const rate = bytes => fill(_('%s/s'), byteAmount(bytes));
    if (limitDown !== undefined && limitDown === limitUp)
        return fill(_('limited to %s'), rate(limitDown));
    if (limitDown !== undefined && limitUp !== undefined)
        return fill(_('limited to %s down, %s up'), rate(limitDown), rate(limitUp));
    if (limitDown !== undefined)
        return fill(_('limited to %s down'), rate(limitDown));
    if (limitUp !== undefined)
        return fill(_('limited to %s up'), rate(limitUp));
    return null;
}

/// A rate of whole kilobytes, as a preset is, in the largest unit that keeps it whole: `100 kB/s`, `1 MB/s`; any
/// other as a rate reads (Swift's `ByteAmount.wholeRate`).
function wholeRate(bytes) {
    if (bytes < 1000 || bytes % 1000 !== 0)
        return fill(_('%s/s'), byteAmount(bytes));
    let value = bytes / 1000;
    for (const unit of ['kB', 'MB', 'GB']) {
        if (value < 1000 || value % 1000 !== 0 || unit === 'GB')
            return fill(_('%s/s'), `${value} ${unit}`);
        value /= 1000;
    }
    return fill(_('%s/s'), byteAmount(bytes));
}

/// The speeds the Limit submenu offers, in bytes a second, slowest first (Swift's `LimitPresets.rates`).
var LIMIT_RATES = [100000, 1000000, 10000000];

/// What the Limit submenu of a measured app marks (Swift's `LimitPresets`): `chosen`, the speed its rule holds it
/// to both ways, 0 for none, null for a speed of its own that no preset is; `pausesOnMetered`.
function limitPresets({limitDown, limitUp, limitMetered}) {
    let chosen = null;
    if (limitDown === undefined && limitUp === undefined)
        chosen = 0;
    else if (limitDown === limitUp && LIMIT_RATES.includes(limitDown))
        chosen = limitDown;
    return {chosen, pausesOnMetered: limitMetered === 'pause'};
}

/// An age to the minute: `42 s`, `3 min`, `2 h 5 min` (Swift's `ElapsedTime.coarse`).
function elapsed(seconds) {
    const whole = Math.max(0, Math.floor(seconds));
    if (whole < 60)
        return fill(_('%d s'), whole);
    const minutes = Math.floor(whole / 60);
    if (minutes < 60)
        return fill(_('%d min'), minutes);
    const hours = Math.floor(minutes / 60);
    return minutes % 60 === 0 ? fill(_('%d h'), hours) : fill(_('%d h %d min'), hours, minutes % 60);
}

/// The day's data usage from `GetUsage`'s records (`a{sv}` each): its total, its metered part and the five apps
/// that used most with their shares, of `user`'s own apps and the machine's services (Swift's `DataUsedToday`).
function usedToday(records, day, user) {
    const rows = records.map(record => Object.fromEntries(Object.entries(record).map(([key, value]) =>
        [key, value.deepUnpack()])))
        .filter(row => row.day === day && (row['private-to'] === undefined || row['private-to'] === user));
    const bytes = row => (row.received ?? 0) + (row.sent ?? 0);
    const total = rows.reduce((sum, row) => sum + bytes(row), 0);
    const metered = rows.filter(row => row.metered).reduce((sum, row) => sum + bytes(row), 0);
    const perApp = new Map();
    for (const row of rows) {
        const app = perApp.get(row.app) ?? {app: row.app, label: row.label, bytes: 0};
        app.bytes += bytes(row);
        perApp.set(row.app, app);
    }
    const apps = [...perApp.values()].sort((a, b) => b.bytes - a.bytes || (a.app < b.app ? -1 : 1)).slice(0, 5)
        .map(app => ({...app, share: total > 0 ? app.bytes / total : 0}));
    return {total, metered, apps};
}

/// One record of `GetActivities`, `(u a{sv})`, as a plain object.
function activityOf([id, record]) {
    const value = key => record[key]?.deepUnpack();
    return {
        id, label: value('label') ?? '', app: value('app'), system: value('system') ?? false,
        source: value('source'), started: value('started') ?? 0, percent: value('percent'), done: value('done'),
        total: value('total'), rate: value('rate'), cancellable: value('cancellable') ?? false,
        cancelRequested: value('cancel-requested') ?? false, user: value('user'), paused: value('paused'),
        limitDown: value('limit-down'), limitUp: value('limit-up'), limitMetered: value('limit-metered'),
    };
}

/// `GetPlans`' records (`a{sv}` each) as plain objects.
function plansOf(records) {
    return records.map(record => Object.fromEntries(Object.entries(record).map(([key, value]) =>
        [key, value.deepUnpack()])));
}

/// The notifications of the machine's data plans, once a level a period (Swift's `PlanWarnings`): of `plans` (as
/// `plansOf` reads them), those due, each `{network, level, used, cap, resets}`; `shown` (a Set of "since network
/// level") is kept up to date, and forgets the periods that ended. A plan found used up is told of as used up alone.
function planWarnings(plans, shown) {
    const current = plans.map(plan => `${plan.since} ${plan.network} `);
    for (const key of [...shown]) {
        if (!current.some(prefix => key.startsWith(prefix)))
            shown.delete(key);
    }
    const due = [];
    for (const plan of [...plans].sort((a, b) => a.network < b.network ? -1 : a.network > b.network ? 1 : 0)) {
        if (plan.level !== 'warning' && plan.level !== 'used-up')
            continue;
        const levels = plan.level === 'used-up' ? ['warning', 'used-up'] : ['warning'];
        const fresh = levels.filter(level => {
            const key = `${plan.since} ${plan.network} ${level}`;
            const isNew = !shown.has(key);
            shown.add(key);
            return isNew;
        });
        if (fresh.includes(plan.level)) {
            due.push({network: plan.network, level: plan.level, used: plan.used, cap: plan.cap,
                resets: plan.resets});
        }
    }
    return due;
}

/// A plan's notification, its summary and body: "Phone hotspot: 8.0 GB of 10.0 GB used, resets on 5 December";
/// `dayAndMonth` names a day, "YYYY-MM-DD", as the translators' strftime format `%-d %B` does.
function planWarningText({network, level, used, cap, resets}, dayAndMonth) {
    const day = dayAndMonth(resets, _('%-d %B'));
    if (level === 'used-up') {
        return {summary: _('Data plan used up'), body: fill(_('%s: %s of %s used; its apps are stopped until it resets on %s'),
            network, byteAmount(used), byteAmount(cap), day)};
    }
    return {summary: _('Data plan'), body: fill(_('%s: %s of %s used, resets on %s'), network, byteAmount(used),
        byteAmount(cap), day)};
}
