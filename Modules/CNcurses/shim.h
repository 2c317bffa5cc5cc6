// ncursesw, the wide-character curses, as Debian's libncurses-dev ships it: what Swift
// cannot import by itself (function-like macros) re-exported as functions and constants.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>

/// The attribute of colour pair `n` (`COLOR_PAIR`).
static inline attr_t nudge_color_pair(short n) { return (attr_t)COLOR_PAIR(n); }

/// Mouse events Nudge reads (`BUTTON1_CLICKED`… are computed macros).
static const mmask_t nudge_button1_pressed = BUTTON1_PRESSED;
static const mmask_t nudge_button1_released = BUTTON1_RELEASED;
static const mmask_t nudge_button1_clicked = BUTTON1_CLICKED;
static const mmask_t nudge_button1_double_clicked = BUTTON1_DOUBLE_CLICKED;
static const mmask_t nudge_button4_pressed = BUTTON4_PRESSED;
static const mmask_t nudge_button5_pressed = BUTTON5_PRESSED;

/// Attributes (`A_BOLD`… are computed macros).
static const attr_t nudge_a_bold = A_BOLD;
static const attr_t nudge_a_dim = A_DIM;
static const attr_t nudge_a_reverse = A_REVERSE;
static const attr_t nudge_a_underline = A_UNDERLINE;
