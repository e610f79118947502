// libheif, loaded when a HEIC photo is first decoded (dlopen) rather than linked: most camctl
// runs decode none, and a machine without libheif still runs camctl.
#ifndef CAMCTL_CHEIF_SHIM_H
#define CAMCTL_CHEIF_SHIM_H
#include <dlfcn.h>
#include <libheif/heif.h>

// The functions camctl calls, from the loaded library.
typedef struct {
    struct heif_context *(*context_alloc)(void);
    void (*context_free)(struct heif_context *context);
    struct heif_error (*read_from_memory)(struct heif_context *context, const void *data, size_t size, const struct heif_reading_options *options);
    struct heif_error (*primary_image_handle)(struct heif_context *context, struct heif_image_handle **handle);
    void (*handle_release)(const struct heif_image_handle *handle);
    int (*handle_width)(const struct heif_image_handle *handle);
    int (*handle_height)(const struct heif_image_handle *handle);
    int (*metadata_block_ids)(const struct heif_image_handle *handle, const char *type, heif_item_id *ids, int count);
    size_t (*metadata_size)(const struct heif_image_handle *handle, heif_item_id id);
    struct heif_error (*metadata)(const struct heif_image_handle *handle, heif_item_id id, void *data);
    struct heif_error (*decode_image)(const struct heif_image_handle *handle, struct heif_image **image, enum heif_colorspace colorspace,
                                      enum heif_chroma chroma, const struct heif_decoding_options *options);
    int (*image_width)(const struct heif_image *image);
    int (*image_height)(const struct heif_image *image);
    const uint8_t *(*plane)(const struct heif_image *image, enum heif_channel channel, int *stride);
    void (*image_release)(const struct heif_image *image);
} camctl_heif;

// Loads libheif and finds its functions; 0 when it is not installed or lacks one.
static inline int camctl_heif_load(camctl_heif *api) {
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
#define CAMCTL_FIND(field, name) *(void **)(&api->field) = dlsym(library, name); if (!api->field) return 0
    CAMCTL_FIND(context_alloc, "heif_context_alloc");
    CAMCTL_FIND(context_free, "heif_context_free");
    CAMCTL_FIND(read_from_memory, "heif_context_read_from_memory_without_copy");
    CAMCTL_FIND(primary_image_handle, "heif_context_get_primary_image_handle");
    CAMCTL_FIND(handle_release, "heif_image_handle_release");
    CAMCTL_FIND(handle_width, "heif_image_handle_get_width");
    CAMCTL_FIND(handle_height, "heif_image_handle_get_height");
    CAMCTL_FIND(metadata_block_ids, "heif_image_handle_get_list_of_metadata_block_IDs");
    CAMCTL_FIND(metadata_size, "heif_image_handle_get_metadata_size");
    CAMCTL_FIND(metadata, "heif_image_handle_get_metadata");
    CAMCTL_FIND(decode_image, "heif_decode_image");
    CAMCTL_FIND(image_width, "heif_image_get_primary_width");
    CAMCTL_FIND(image_height, "heif_image_get_primary_height");
    CAMCTL_FIND(plane, "heif_image_get_plane_readonly");
    CAMCTL_FIND(image_release, "heif_image_release");
#undef CAMCTL_FIND
    return 1;
}
#endif
