// SPDX-License-Identifier: Apache-2.0
/// netactivity's version: what every program's `--version` prints, and the Debian package's version
/// (`packaging/build-deb.sh` reads it from `netactivityd --version`). Change it here only.
public enum PackageVersion {
    public static let current = "0.7.0"
}
