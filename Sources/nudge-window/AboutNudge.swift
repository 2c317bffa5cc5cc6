#if canImport(Glibc)
import Glibc
#endif
import CAdwaita
import NudgeKit

/// About Nudge (the primary menu's last item): the version every program says, the people,
/// the license and the links, all from NudgeService, which holds the metainfo's (a test keeps
/// them equal), so a software centre and the window never disagree. An AdwAboutWindow on
/// libadwaita 1.2, an AdwAboutDialog over the window from 1.5 (about-window.ui,
/// about-dialog-1.5.ui): the same properties by name on either.
@MainActor enum AboutNudge {
    static func present(over parent: Widget) {
        let ui = Builder(AdwaitaGeneration.about)
        defer { ui.release() }
        let about = AdwaitaGeneration.top(ui, "about")
        let object = about.raw
        nudge_object_set_string(object, "version", NudgeService.version)
        nudge_object_set_string(object, "developer-name", NudgeService.developers)
        nudge_object_set_string(object, "website", NudgeService.website)
        nudge_object_set_string(object, "issue-url", NudgeService.issues)
        // TRANSLATORS: About Nudge: your name (and address) as a translator, one per line; "translator-credits" stays untranslated for none.
        let translators = tr("translator-credits")
        if translators != "translator-credits" { nudge_object_set_string(object, "translator-credits", translators) }
        let developers = strdup(NudgeService.developers)
        var names: [UnsafePointer<CChar>?] = [UnsafePointer(developers), nil]
        nudge_object_set_strv(object, "developers", &names)
        free(developers)
        nudge_object_set_int(object, "license-type", Int32(license.rawValue))
        AdwaitaGeneration.present(about, over: parent)
        // Its pages, lists, texts and back arrows (libadwaita names them by their class).
        // TRANSLATORS: the accessible name of what About Nudge holds, where nothing nearer names it.
        AccessibleNames.fillBuiltWhole(about, fallback: tr("About Nudge"))
        // A dialog was ours until presented: the window holds it from then until it closes.
        AdwaitaGeneration.letGo(about)
    }

    /// GTK's name for the license the metainfo states.
    private static var license: GtkLicense {
        switch NudgeService.license {
        case "Apache-2.0": GTK_LICENSE_APACHE_2_0
        case "MIT": GTK_LICENSE_MIT_X11
        default: GTK_LICENSE_CUSTOM
        }
    }
}
