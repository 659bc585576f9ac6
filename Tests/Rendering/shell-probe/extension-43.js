/* exported init */
const ExtensionUtils = imports.misc.extensionUtils;

function init() {
    let stop = null;
    return {
        enable() {
            stop = ExtensionUtils.getCurrentExtension().imports.probe.serve(imports.ui.main, imports.gi.Gio);
        },
        disable() {
            stop?.();
        },
    };
}
