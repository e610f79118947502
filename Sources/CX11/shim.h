// Xlib, loaded when a preview first fills an X screen (dlopen) rather than linked: camctl runs
// on machines with no X at all (a console's kmssink, a server with no screen).
#ifndef CAMCTL_CX11_SHIM_H
#define CAMCTL_CX11_SHIM_H
#include <dlfcn.h>
#include <X11/Xlib.h>
#include <X11/Xatom.h>

// The functions camctl calls, from the loaded library.
typedef struct {
    Display *(*open_display)(const char *name);
    int (*close_display)(Display *display);
    int (*default_screen)(Display *display);
    int (*display_width)(Display *display, int screen);
    int (*display_height)(Display *display, int screen);
    Window (*root_window)(Display *display, int screen);
    unsigned long (*black_pixel)(Display *display, int screen);
    Window (*create_simple_window)(Display *display, Window parent, int x, int y, unsigned width, unsigned height,
                                   unsigned border_width, unsigned long border, unsigned long background);
    int (*destroy_window)(Display *display, Window window);
    int (*map_raised)(Display *display, Window window);
    Atom (*intern_atom)(Display *display, const char *name, Bool only_if_exists);
    int (*change_property)(Display *display, Window window, Atom property, Atom type, int format, int mode,
                           const unsigned char *data, int count);
    int (*store_name)(Display *display, Window window, const char *name);
    Pixmap (*create_bitmap_from_data)(Display *display, Drawable drawable, const char *data, unsigned width, unsigned height);
    Cursor (*create_pixmap_cursor)(Display *display, Pixmap source, Pixmap mask, XColor *foreground, XColor *background,
                                   unsigned x, unsigned y);
    int (*define_cursor)(Display *display, Window window, Cursor cursor);
    int (*free_cursor)(Display *display, Cursor cursor);
    int (*free_pixmap)(Display *display, Pixmap pixmap);
    int (*sync)(Display *display, Bool discard);
    Status (*set_wm_protocols)(Display *display, Window window, Atom *protocols, int count);
} camctl_x11;

// Loads Xlib and finds its functions; 0 when it is not installed or lacks one.
static inline int camctl_x11_load(camctl_x11 *api) {
    void *library = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
#define CAMCTL_FIND(field, name) *(void **)(&api->field) = dlsym(library, name); if (!api->field) return 0
    CAMCTL_FIND(open_display, "XOpenDisplay");
    CAMCTL_FIND(close_display, "XCloseDisplay");
    CAMCTL_FIND(default_screen, "XDefaultScreen");
    CAMCTL_FIND(display_width, "XDisplayWidth");
    CAMCTL_FIND(display_height, "XDisplayHeight");
    CAMCTL_FIND(root_window, "XRootWindow");
    CAMCTL_FIND(black_pixel, "XBlackPixel");
    CAMCTL_FIND(create_simple_window, "XCreateSimpleWindow");
    CAMCTL_FIND(destroy_window, "XDestroyWindow");
    CAMCTL_FIND(map_raised, "XMapRaised");
    CAMCTL_FIND(intern_atom, "XInternAtom");
    CAMCTL_FIND(change_property, "XChangeProperty");
    CAMCTL_FIND(store_name, "XStoreName");
    CAMCTL_FIND(create_bitmap_from_data, "XCreateBitmapFromData");
    CAMCTL_FIND(create_pixmap_cursor, "XCreatePixmapCursor");
    CAMCTL_FIND(define_cursor, "XDefineCursor");
    CAMCTL_FIND(free_cursor, "XFreeCursor");
    CAMCTL_FIND(free_pixmap, "XFreePixmap");
    CAMCTL_FIND(sync, "XSync");
    CAMCTL_FIND(set_wm_protocols, "XSetWMProtocols");
#undef CAMCTL_FIND
    return 1;
}
#endif
