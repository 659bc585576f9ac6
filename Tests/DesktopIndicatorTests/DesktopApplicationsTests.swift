import DesktopIndicator
import Foundation
import NetworkActivityClient
import ProgramSupport
import Testing

/// How the desktop's names and icons of applications are found, for the tray, `status` and the panel modules.
@Suite struct DesktopApplicationsTests {
    static let entry = """
        [Desktop Entry]
        # a comment
        Type=Application
        Name=Backup Tool
        Name[de]=Sicherung
        Name[pt_BR] = Cópia\\sde segurança
        Icon=document-save
        Exec=backup-tool %U

        [Desktop Action new]
        Name=New Backup
        Icon=list-add
        """

    @Test func theNameInTheUsersLanguageAndTheIconOfTheDesktopEntryGroup() {
        #expect(DesktopApplications.parse(Self.entry, languages: [])
            == DesktopApplication(name: "Backup Tool", icon: "document-save"))
        #expect(DesktopApplications.parse(Self.entry, languages: ["de_AT", "de"])?.name == "Sicherung")
        #expect(DesktopApplications.parse(Self.entry, languages: ["pt_BR", "pt"])?.name == "Cópia de segurança")
        #expect(DesktopApplications.parse("[Desktop Entry]\nIcon=x\n", languages: []) == nil, "no name")
        #expect(DesktopApplications.parse("[Desktop Action x]\nName=Other\n", languages: []) == nil)
        #expect(DesktopApplications.parse("[Desktop Entry]\nName=Mail\n", languages: [])
            == DesktopApplication(name: "Mail", icon: nil))
    }

    /// Found by the outside-text fuzz target: `\n` in a name made a name of two lines.
    @Test func escapedLineBreaksAndTabsBecomeSpaces() {
        #expect(DesktopApplications.parse("[Desktop Entry]\nName=Back\\nup\\ttool\\r\\\\n\n", languages: [])?.name
            == "Back up tool \\n")
    }

    @Test func theLanguagesOfALocale() {
        let cases: [(String, [String])] = [
            ("de_DE.UTF-8", ["de_DE", "de"]), ("pt_BR@latin", ["pt_BR", "pt"]), ("fr", ["fr"]), ("C.UTF-8", []),
            ("POSIX", []), ("", []),
        ]
        for (locale, languages) in cases {
            #expect(DesktopApplications.languages(ofLocale: locale) == languages, "\(locale)")
        }
    }

    @Test func theUsersOwnFilesComeFirstThenTheDataDirectoriesInOrder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("apps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ folder: String, _ id: String, _ name: String) throws {
            let url = root.appendingPathComponent("\(folder)/applications")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try "[Desktop Entry]\nName=\(name)\nName[de]=\(name) (de)\nIcon=\(id)\n"
                .write(to: url.appendingPathComponent("\(id).desktop"), atomically: true, encoding: .utf8)
        }
        try write("home/.local/share", "mail", "My Mail")
        try write("first", "mail", "System Mail")
        try write("first", "backup-tool", "Backup Tool")
        try write("second", "backup-tool", "Other Backup")
        try write("second", "org.example.Viewer", "Viewer")
        let applications = DesktopApplications(environment: [
            "HOME": root.path + "/home", "XDG_DATA_DIRS": "\(root.path)/first:relative:\(root.path)/second",
            "LC_MESSAGES": "de_DE.UTF-8", "LANG": "en_GB.UTF-8",
        ])
        #expect(applications.application("mail") == DesktopApplication(name: "My Mail (de)", icon: "mail"))
        #expect(applications.application("backup-tool")?.name == "Backup Tool (de)")
        #expect(applications.application("org.example.Viewer")?.name == "Viewer (de)")
        #expect(applications.application("curl") == nil, "a command's name, with no desktop file")
        for hostile in ["../first/applications/mail", "", ".hidden"] {
            #expect(applications.application(hostile) == nil, "\(hostile)")
        }
    }

    @Test func aCommandsNameIsTheApplicationsNameButNotPartOfTheTitle() {
        var activity = ActivityStatus.example(label: "sync", percent: 45)
        #expect(activity.applicationName == nil && activity.title == "sync")
        // No desktop file names "rsync-like-tool": the command's name stands for the application, in `status`.
        activity.application = "rsync-like-tool"
        #expect(activity.applicationName == "rsync-like-tool" && activity.applicationIcon == nil)
        #expect(activity.title == "sync" && activity.summaryLine == "sync — 45 %")
    }
}
