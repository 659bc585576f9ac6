// Checks the GNOME Shell extension's rules (rules.js: overallPercent, byteAmount, elapsed,
// limitText, limitPresets, wholeRate, planWarnings and planWarningText) against the table
// of cases the Swift rules are tested against too. `gjs -m check-extension-rules.js RULES.js CASES.json`;
// prints each case that differs, and exits 1 when any does.
import GLib from 'gi://GLib';
import System from 'system';

const [rulesPath, casesPath] = ARGV;
const read = path => new TextDecoder().decode(GLib.file_get_contents(path)[1]);
const source = read(rulesPath);
const rules = new Function(
    `${source}\nreturn {overallPercent, byteAmount, elapsed, limitText, limitPresets, wholeRate, LIMIT_RATES, planWarnings,
        planWarningText};`)();
// A day named as the extension names it, with GLib, in the C locale the checker runs in.
const dayAndMonth = (day, format) => {
    const [year, month, date] = day.split('-').map(Number);
    return GLib.DateTime.new_local(year, month, date, 12, 0, 0).format(format);
};
const cases = JSON.parse(read(casesPath));

let failures = 0;
function check(what, example, got, expected) {
    if (got === expected)
        return;
    failures += 1;
    print(`${what} ${JSON.stringify(example)}: got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
}
for (const example of cases.overallPercent)
    check('overallPercent', example, rules.overallPercent(example.activities), example.percent);
for (const example of cases.byteAmount)
    check('byteAmount', example, rules.byteAmount(example.bytes), example.text);
for (const example of cases.elapsed)
    check('elapsed', example, rules.elapsed(example.seconds), example.text);
for (const example of cases.limitText)
    check('limitText', example, rules.limitText({limitDown: example.down, limitUp: example.up}), example.text);
for (const example of cases.limitPresets) {
    const presets = rules.limitPresets({limitDown: example.down, limitUp: example.up, limitMetered: example.metered});
    check('limitPresets', example, JSON.stringify([presets.chosen, presets.pausesOnMetered]),
        JSON.stringify([example.chosen, example.pauses]));
    if (example.labels)
        check('limitPresets', example, JSON.stringify(rules.LIMIT_RATES.map(rules.wholeRate)), JSON.stringify(example.labels));
}
for (const example of cases.wholeRate)
    check('wholeRate', example, rules.wholeRate(example.bytes), example.text);
let steps = 0;
for (const scenario of cases.planWarnings) {
    const shown = new Set(scenario.shown);
    scenario.steps.forEach((step, index) => {
        steps += 1;
        const due = rules.planWarnings(step.plans, shown).map(warning => rules.planWarningText(warning, dayAndMonth));
        check('planWarnings', `${scenario.about}, step ${index}`, JSON.stringify(due), JSON.stringify(step.due));
    });
}
const count = cases.overallPercent.length + cases.byteAmount.length + cases.elapsed.length + cases.limitText.length
    + cases.limitPresets.length + cases.wholeRate.length + steps;
print(`${count - failures} of ${count} cases agree`);
System.exit(failures === 0 ? 0 : 1);
