// SPDX-License-Identifier: Apache-2.0
import Localization

/// How long something took or has been going, as a person reads it, in units their language abbreviates.
public enum ElapsedTime {
    /// To the minute past the first minute, for ages that are read at a glance: "12 s", "3 min", "2 h 5 min".
    public static func coarse(_ duration: Duration) -> String {
        let seconds = max(0, duration.components.seconds)
        if seconds < 60 { return Self.seconds(seconds) }
        return hoursAndMinutes(seconds / 60)
    }

    /// To the second under an hour, for a command's run: "0.4 s", "12 s", "3 min 12 s", "2 h 5 min".
    public static func precise(_ duration: Duration) -> String {
        let components = duration.components
        let seconds = max(0, components.seconds)
        if seconds < 10 {
            let tenths = max(0, Int64(seconds) * 10 + components.attoseconds / 100_000_000_000_000_000)
            // TRANSLATORS: seconds to one decimal, abbreviated: "0.4 s".
            return localized("%s s", LocalFormats.tenths(tenths))
        }
        if seconds < 60 { return Self.seconds(seconds) }
        if seconds < 3600 {
            return seconds % 60 == 0 ? localized("%d min", seconds / 60) : localized("%d min %d s", seconds / 60, seconds % 60)
        }
        return hoursAndMinutes(seconds / 60)
    }

    private static func hoursAndMinutes(_ minutes: Int64) -> String {
        if minutes < 60 { return localized("%d min", minutes) }
        return minutes % 60 == 0 ? localized("%d h", minutes / 60) : localized("%d h %d min", minutes / 60, minutes % 60)
    }

    private static func seconds(_ seconds: Int64) -> String {
        localized("%d s", seconds)
    }
}
