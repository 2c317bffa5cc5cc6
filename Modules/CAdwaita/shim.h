#ifndef NUDGE_CADWAITA_SHIM_H
#define NUDGE_CADWAITA_SHIM_H

#include <adwaita.h>

/* What Swift cannot call itself: variadic functions and macros that are not constants.
   Each helper does exactly one thing; nothing else belongs here. */

/* g_signal_connect_data with the handler as a plain pointer: Swift passes each signal's
   own @convention(c) thunk, and GLib calls `notify` with `data` when the handler goes. */
static inline gulong nudge_signal_connect(gpointer instance, const char *signal, const void *handler,
                                          gpointer data, GClosureNotify notify) {
    return g_signal_connect_data(instance, signal, (GCallback)handler, data, notify, (GConnectFlags)0);
}

/* gtk_accessible_update_property is variadic. (A label a screen reader does not read as part
   of its button's name, and a window announced as a dialog, set roles at construction only:
   the .ui files do that, with `accessible-role`.) */
static inline void nudge_accessible_set_label(gpointer accessible, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(accessible), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static inline void nudge_accessible_set_description(gpointer accessible, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(accessible), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

/* A switch's checked state as a screen reader reads it (GtkSwitch tells it itself, but a
   change made inside its own notify::active is told the other way by the rest of it). */
static inline void nudge_accessible_set_checked(gpointer accessible, gboolean checked) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(accessible), GTK_ACCESSIBLE_STATE_CHECKED, checked, -1);
}

/* A toggle button a screen reader meets as a radio button (the role is set at construction
   only, through a variadic call Swift cannot make). */
static inline GtkWidget *nudge_radio_toggle_button_new(const char *label) {
    return g_object_new(GTK_TYPE_TOGGLE_BUTTON, "label", label, "accessible-role", GTK_ACCESSIBLE_ROLE_RADIO, NULL);
}

/* g_object_set is variadic: one property of each kind the window sets by name (the About's
   fields, on AdwAboutWindow or AdwAboutDialog alike, whichever libadwaita has). */
static inline void nudge_object_set_string(gpointer object, const char *property, const char *value) {
    g_object_set(object, property, value, NULL);
}

static inline void nudge_object_set_int(gpointer object, const char *property, int value) {
    g_object_set(object, property, value, NULL);
}

static inline void nudge_object_set_strv(gpointer object, const char *property, const char *const *value) {
    g_object_set(object, property, value, NULL);
}

/* GTK_BUILDABLE_GET_IFACE is a macro: a child added as a .ui file's <child type="…"> adds it,
   so a widget of a newer libadwaita (AdwToolbarView's top bar, AdwPreferencesDialog's page)
   takes a child without the program linking that libadwaita's functions. */
static inline void nudge_buildable_add_child(gpointer parent, gpointer child, const char *type) {
    GtkBuilder *builder = gtk_builder_new();
    GTK_BUILDABLE_GET_IFACE(parent)->add_child(GTK_BUILDABLE(parent), builder, G_OBJECT(child), type);
    g_object_unref(builder);
}

/* A GSource with room for its owner: another event loop hosted in GLib's. */
typedef struct {
    GSource source;
    void *owner;
} NudgeHostedSource;

static inline GSource *nudge_hosted_source_new(GSourceFuncs *funcs, void *owner) {
    GSource *source = g_source_new(funcs, sizeof(NudgeHostedSource));
    ((NudgeHostedSource *)source)->owner = owner;
    return source;
}

static inline void *nudge_hosted_source_owner(GSource *source) {
    return ((NudgeHostedSource *)source)->owner;
}

#endif
