// The C bridge: GStreamer's headers, and static inline shims for the few things
// Swift cannot call (function-like macros). Everything else is written in Swift.
#ifndef CAMCTL_CGSTREAMER_SHIM_H
#define CAMCTL_CGSTREAMER_SHIM_H

#include <dlfcn.h>
#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
#include <gst/tag/tag.h>
#include <gst/pbutils/pbutils.h>
#include <gst/rtsp-server/rtsp-server.h>

// Fundamental GLib types are macros (G_TYPE_MAKE_FUNDAMENTAL).
static inline GType cgst_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType cgst_type_int(void) { return G_TYPE_INT; }
static inline GType cgst_type_uint(void) { return G_TYPE_UINT; }
static inline GType cgst_type_long(void) { return G_TYPE_LONG; }
static inline GType cgst_type_ulong(void) { return G_TYPE_ULONG; }
static inline GType cgst_type_int64(void) { return G_TYPE_INT64; }
static inline GType cgst_type_uint64(void) { return G_TYPE_UINT64; }
static inline GType cgst_type_float(void) { return G_TYPE_FLOAT; }
static inline GType cgst_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType cgst_type_string(void) { return G_TYPE_STRING; }
static inline GType cgst_type_enum(void) { return G_TYPE_ENUM; }
static inline GType cgst_type_flags(void) { return G_TYPE_FLAGS; }
static inline GType cgst_type_boxed(void) { return G_TYPE_BOXED; }

static inline GType cgst_type_object(void) { return G_TYPE_OBJECT; }

// g_signal_emit_by_name is variadic: an action signal without arguments or result.
static inline void cgst_emit_action(gpointer instance, const gchar *signal) { g_signal_emit_by_name(instance, signal); }

// G_TYPE_CHECK_INSTANCE_TYPE, the body of every GST_IS_* macro.
static inline gboolean cgst_instance_is_a(gpointer instance, GType type) {
    return instance != NULL && G_TYPE_CHECK_INSTANCE_TYPE(instance, type);
}

// G_VALUE_TYPE
static inline GType cgst_value_type(const GValue *value) { return G_VALUE_TYPE(value); }

// GST_ELEMENT_GET_CLASS's pad templates: the element's class's, owned by the class.
static inline GList *cgst_element_pad_templates(GstElement *element) {
    return gst_element_class_get_pad_template_list(GST_ELEMENT_GET_CLASS(element));
}

// Makes an element as gst-launch does: its properties given at construction (as GObject sets
// construct properties, a later one can undo an earlier one: videoflip's video-direction undoes
// its method), each value read from its text as the type the element's class gives it. NULL
// when the factory is missing, a property is not the class's own or a value does not read
// (gst-launch's own reading then says which).
static inline GstElement *cgst_make_element(const gchar *factory_name, guint count, const gchar **names, const gchar **texts) {
    GstElementFactory *factory = gst_element_factory_find(factory_name);
    if (factory == NULL) return NULL;
    GstPluginFeature *loaded = gst_plugin_feature_load(GST_PLUGIN_FEATURE(factory));
    gst_object_unref(factory);
    if (loaded == NULL) return NULL;
    GType type = gst_element_factory_get_element_type(GST_ELEMENT_FACTORY(loaded));
    GObjectClass *klass = type != 0 ? g_type_class_ref(type) : NULL;
    GValue *values = g_new0(GValue, count > 0 ? count : 1);
    gboolean read = klass != NULL;
    for (guint i = 0; read && i < count; i++) {
        GParamSpec *spec = g_object_class_find_property(klass, names[i]);
        read = spec != NULL && (spec->flags & G_PARAM_WRITABLE) != 0;
        if (read) {
            g_value_init(&values[i], G_PARAM_SPEC_VALUE_TYPE(spec));
            read = gst_value_deserialize_with_pspec(&values[i], texts[i], spec);
        }
    }
    GstElement *element = read ? gst_element_factory_create_with_properties(GST_ELEMENT_FACTORY(loaded), count, names, values) : NULL;
    for (guint i = 0; i < count; i++) {
        if (G_IS_VALUE(&values[i])) g_value_unset(&values[i]);
    }
    g_free(values);
    if (klass != NULL) g_type_class_unref(klass);
    gst_object_unref(loaded);
    return element;
}

// G_PARAM_SPEC_VALUE_TYPE
static inline GType cgst_param_spec_value_type(const GParamSpec *pspec) { return G_PARAM_SPEC_VALUE_TYPE(pspec); }

// gst-rtsp-server, loaded when an RTSP server first starts (dlopen) rather than linked: linked,
// it and the libraries behind it (GIO, RTSP, SDP, RTP) would be loaded by every camctl start.
// Each field has the type of the function it holds; the two variadic ones, which Swift cannot
// call, are held untyped and called by the shims below.
typedef struct {
    __typeof__(&gst_rtsp_server_new) server_new;
    __typeof__(&gst_rtsp_server_set_address) server_set_address;
    __typeof__(&gst_rtsp_server_set_service) server_set_service;
    __typeof__(&gst_rtsp_server_set_auth) server_set_auth;
    __typeof__(&gst_rtsp_server_create_source) server_create_source;
    __typeof__(&gst_rtsp_server_get_session_pool) server_get_session_pool;
    __typeof__(&gst_rtsp_server_get_bound_port) server_get_bound_port;
    __typeof__(&gst_rtsp_server_get_mount_points) server_get_mount_points;
    __typeof__(&gst_rtsp_server_client_filter) server_client_filter;
    __typeof__(&gst_rtsp_session_pool_create_watch) session_pool_create_watch;
    __typeof__(&gst_rtsp_auth_new) auth_new;
    __typeof__(&gst_rtsp_auth_make_basic) auth_make_basic;
    __typeof__(&gst_rtsp_auth_add_basic) auth_add_basic;
    __typeof__(&gst_rtsp_media_factory_new) media_factory_new;
    __typeof__(&gst_rtsp_media_factory_set_launch) media_factory_set_launch;
    __typeof__(&gst_rtsp_media_factory_set_shared) media_factory_set_shared;
    __typeof__(&gst_rtsp_media_get_element) media_get_element;
    __typeof__(&gst_rtsp_mount_points_add_factory) mount_points_add_factory;
    __typeof__(&gst_rtsp_thread_pool_cleanup) thread_pool_cleanup;
    void *token_new;
    void *media_factory_add_role;
} cgst_rtsp_api;

// Loads gst-rtsp-server and finds its functions; 0 when it is not installed or lacks one.
static inline int cgst_rtsp_load(cgst_rtsp_api *api) {
    void *library = dlopen("libgstrtspserver-1.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
#define CGST_FIND(field, name) *(void **)(&api->field) = dlsym(library, name); if (!api->field) return 0
    CGST_FIND(server_new, "gst_rtsp_server_new");
    CGST_FIND(server_set_address, "gst_rtsp_server_set_address");
    CGST_FIND(server_set_service, "gst_rtsp_server_set_service");
    CGST_FIND(server_set_auth, "gst_rtsp_server_set_auth");
    CGST_FIND(server_create_source, "gst_rtsp_server_create_source");
    CGST_FIND(server_get_session_pool, "gst_rtsp_server_get_session_pool");
    CGST_FIND(server_get_bound_port, "gst_rtsp_server_get_bound_port");
    CGST_FIND(server_get_mount_points, "gst_rtsp_server_get_mount_points");
    CGST_FIND(server_client_filter, "gst_rtsp_server_client_filter");
    CGST_FIND(session_pool_create_watch, "gst_rtsp_session_pool_create_watch");
    CGST_FIND(auth_new, "gst_rtsp_auth_new");
    CGST_FIND(auth_make_basic, "gst_rtsp_auth_make_basic");
    CGST_FIND(auth_add_basic, "gst_rtsp_auth_add_basic");
    CGST_FIND(media_factory_new, "gst_rtsp_media_factory_new");
    CGST_FIND(media_factory_set_launch, "gst_rtsp_media_factory_set_launch");
    CGST_FIND(media_factory_set_shared, "gst_rtsp_media_factory_set_shared");
    CGST_FIND(media_get_element, "gst_rtsp_media_get_element");
    CGST_FIND(mount_points_add_factory, "gst_rtsp_mount_points_add_factory");
    CGST_FIND(thread_pool_cleanup, "gst_rtsp_thread_pool_cleanup");
    CGST_FIND(token_new, "gst_rtsp_token_new");
    CGST_FIND(media_factory_add_role, "gst_rtsp_media_factory_add_role");
#undef CGST_FIND
    return 1;
}

// gst-rtsp-server's tokens and permissions are built with variadic calls: one role, allowed to
// open and make a factory's media.
// Each takes the loaded function it calls (cgst_rtsp_api's token_new, media_factory_add_role).
static inline GstRTSPToken *cgst_rtsp_token_for_role(void *loaded_token_new, const gchar *role) {
    GstRTSPToken *(*token_new)(const gchar *, ...) = (GstRTSPToken *(*)(const gchar *, ...))loaded_token_new;
    return token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, role, NULL);
}
static inline void cgst_rtsp_factory_allow(void *loaded_add_role, GstRTSPMediaFactory *factory, const gchar *role) {
    void (*add_role)(GstRTSPMediaFactory *, const gchar *, const gchar *, ...) =
        (void (*)(GstRTSPMediaFactory *, const gchar *, const gchar *, ...))loaded_add_role;
    add_role(factory, role, GST_RTSP_PERM_MEDIA_FACTORY_ACCESS, G_TYPE_BOOLEAN, TRUE,
             GST_RTSP_PERM_MEDIA_FACTORY_CONSTRUCT, G_TYPE_BOOLEAN, TRUE, NULL);
}

// The element factories that encode video into `caps` (a GstCaps of the encoded format), of at
// least marginal rank, highest rank first; free with gst_plugin_feature_list_free.
static inline GList *cgst_video_encoders(const GstCaps *caps) {
    GList *all = gst_element_factory_list_get_elements(GST_ELEMENT_FACTORY_TYPE_VIDEO_ENCODER, GST_RANK_MARGINAL);
    GList *fitting = gst_element_factory_list_filter(all, caps, GST_PAD_SRC, FALSE);
    gst_plugin_feature_list_free(all);
    return g_list_sort(fitting, (GCompareFunc)gst_plugin_feature_rank_compare_func);
}
#endif
