/* The floor a libadwaita window's start is compared with (bench/window-bench.py): a bare
 * AdwApplicationWindow with a header bar and 20 AdwActionRows, each with a switch, in C,
 * nothing read and nothing else done. Nudge's window does the same and more (it reads
 * the store, words the rows, follows the daemon): its start is measured against this one
 * on the same display, in the same run.
 *
 *   cc bench/floors/adw-floor.c $(pkg-config --cflags --libs libadwaita-1) -o adw-floor
 */
#include <adwaita.h>
#include <stdio.h>

static void activate(GtkApplication *app, gpointer data) {
    (void)data;
    GtkWidget *window = adw_application_window_new(app);
    gtk_window_set_title(GTK_WINDOW(window), "Floor");
    gtk_window_set_default_size(GTK_WINDOW(window), 640, 720);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_box_append(GTK_BOX(box), adw_header_bar_new());
    GtkWidget *list = gtk_list_box_new();
    gtk_list_box_set_selection_mode(GTK_LIST_BOX(list), GTK_SELECTION_NONE);
    gtk_widget_add_css_class(list, "boxed-list");
    for (int i = 1; i <= 20; i++) {
        char title[32];
        snprintf(title, sizeof title, "Reminder %d", i);
        GtkWidget *row = adw_action_row_new();
        adw_preferences_row_set_title(ADW_PREFERENCES_ROW(row), title);
        adw_action_row_set_subtitle(ADW_ACTION_ROW(row), "daily at 09:30");
        GtkWidget *toggle = gtk_switch_new();
        gtk_switch_set_active(GTK_SWITCH(toggle), TRUE);
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER);
        adw_action_row_add_suffix(ADW_ACTION_ROW(row), toggle);
        gtk_list_box_append(GTK_LIST_BOX(list), row);
    }
    GtkWidget *clamp = adw_clamp_new();
    adw_clamp_set_child(ADW_CLAMP(clamp), list);
    gtk_widget_set_margin_top(clamp, 12);
    gtk_widget_set_margin_bottom(clamp, 12);
    GtkWidget *scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), clamp);
    gtk_widget_set_vexpand(scroller, TRUE);
    gtk_box_append(GTK_BOX(box), scroller);
    adw_application_window_set_content(ADW_APPLICATION_WINDOW(window), box);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    AdwApplication *app = adw_application_new("io.github.nudge.Floor", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), argc, argv);
    g_object_unref(app);
    return status;
}
