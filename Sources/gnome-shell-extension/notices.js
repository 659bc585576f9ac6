// SPDX-License-Identifier: GPL-2.0-or-later
// The machine's data plans, told of in the Shell's own notifications: once a plan passes its warning in a period,
// and once it is used up, as the tray tells of them (`planWarnings`, against the same table of cases as Swift's
// `PlanWarnings`); a used-up plan's notification offers Resume. One of the five parts the build joins into
// `indicator.js`.

/// Tells of the plans' levels: `show(plans)` with each read of the plans, and `release(shellGoing)` when the
/// extension stops, which takes its notifications away unless the Shell itself is going (and takes them).
/// What was told is kept in the session's runtime folder, so that the Shell, restarted or unlocked (which enables
/// the extension again) in the same period, does not tell again; it is read and written without blocking the
/// Shell, and plans read before it was read wait for it.
function makePlanNotices({Gio, GLib, Main, MessageTray, shellMajor}, service) {
    const folder = `${GLib.get_user_runtime_dir()}/netactivity`;
    const file = Gio.File.new_for_path(`${folder}/extension-plan-notices`);
    const cancellable = new Gio.Cancellable();
    let shown = null;
    let waiting = null;
    file.load_contents_async(cancellable, (_file, result) => {
        let text = '';
        try {
            text = new TextDecoder().decode(file.load_contents_finish(result)[1]);
        } catch (error) {
            // None kept yet, or the extension stopped meanwhile.
            if (error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                return;
        }
        shown = new Set(text.split('\n').filter(line => line !== ''));
        if (waiting !== null)
            show(waiting);
    });
    // GNOME 46 made the notifications' sources and notifications of one object of properties each.
    const propertiesAlone = shellMajor >= 46;
    let source = null;

    function sourceNow() {
        if (source !== null)
            return source;
        const title = _('Network activity');
        source = propertiesAlone ? new MessageTray.Source({title, iconName: ICON_NAME})
            : new MessageTray.Source(title, ICON_NAME);
        source.connect('destroy', () => {
            source = null;
        });
        Main.messageTray.add(source);
        return source;
    }

    /// A day, "YYYY-MM-DD", named with `format` (strftime's, as GLib writes it) in the session's language.
    function dayAndMonth(day, format) {
        const [year, month, date] = day.split('-').map(Number);
        return GLib.DateTime.new_local(year, month, date, 12, 0, 0).format(format);
    }

    function notify(warning) {
        const {summary, body} = planWarningText(warning, dayAndMonth);
        const into = sourceNow();
        const notification = propertiesAlone ? new MessageTray.Notification({source: into, title: summary, body})
            : new MessageTray.Notification(into, summary, body);
        if (warning.level === 'used-up')
            notification.addAction(_('Resume'), () => service.resumePlan(warning.network));
        if (propertiesAlone)
            into.addNotification(notification);
        else
            into.showNotification(notification);
    }

    function show(plans) {
        if (shown === null) {
            waiting = plans;
            return;
        }
        waiting = null;
        const due = planWarnings(plans, shown);
        for (const warning of due)
            notify(warning);
        if (due.length === 0)
            return;
        GLib.mkdir_with_parents(folder, 0o700);
        const bytes = new GLib.Bytes(new TextEncoder().encode([...shown].sort().join('\n')));
        file.replace_contents_bytes_async(bytes, null, false, Gio.FileCreateFlags.PRIVATE, cancellable,
            (_file, result) => {
                try {
                    file.replace_contents_finish(result);
                } catch (error) {
                    if (!error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                        log(`netactivity: could not keep the plans' notifications shown: ${error.message}`);
                }
            });
    }

    return {
        show,
        release(shellGoing) {
            cancellable.cancel();
            if (!shellGoing)
                source?.destroy();
            source = null;
        },
    };
}
