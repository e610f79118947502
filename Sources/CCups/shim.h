// libcups, loaded when a picture is first printed (dlopen) rather than linked: most camctl runs
// print nothing, and libcups brings GnuTLS and Avahi's libraries with it.
#ifndef CAMCTL_CCUPS_SHIM_H
#define CAMCTL_CCUPS_SHIM_H
#include <dlfcn.h>
#include <cups/cups.h>
#include <cups/raster.h>

// The functions camctl calls, from the loaded library.
typedef struct {
    cups_dest_t *(*get_named_dest)(http_t *http, const char *name, const char *instance);
    cups_dest_t *(*get_dest_with_uri)(const char *name, const char *uri);
    void (*free_dests)(int count, cups_dest_t *dests);
    http_t *(*connect_dest)(cups_dest_t *dest, unsigned flags, int msec, int *cancel, char *resource, size_t size,
                            cups_dest_cb_t callback, void *context);
    cups_dinfo_t *(*copy_dest_info)(http_t *http, cups_dest_t *dest);
    void (*free_dest_info)(cups_dinfo_t *info);
    ipp_status_t (*create_dest_job)(http_t *http, cups_dest_t *dest, cups_dinfo_t *info, int *job, const char *title,
                                    int option_count, cups_option_t *options);
    http_status_t (*start_dest_document)(http_t *http, cups_dest_t *dest, cups_dinfo_t *info, int job, const char *name,
                                         const char *format, int option_count, cups_option_t *options, int last);
    http_status_t (*write_request_data)(http_t *http, const char *buffer, size_t length);
    ipp_status_t (*finish_dest_document)(http_t *http, cups_dest_t *dest, cups_dinfo_t *info);
    int (*add_option)(const char *name, const char *value, int count, cups_option_t **options);
    void (*free_options)(int count, cups_option_t *options);
    const char *(*get_option)(const char *name, int count, cups_option_t *options);
    const char *(*last_error_string)(void);
    ipp_t *(*new_request)(ipp_op_t operation);
    ipp_attribute_t *(*add_string)(ipp_t *ipp, ipp_tag_t group, ipp_tag_t tag, const char *name, const char *language, const char *value);
    ipp_attribute_t *(*add_integer)(ipp_t *ipp, ipp_tag_t group, ipp_tag_t tag, const char *name, int value);
    ipp_t *(*do_request)(http_t *http, ipp_t *request, const char *resource);
    ipp_attribute_t *(*find_attribute)(ipp_t *ipp, const char *name, ipp_tag_t tag);
    int (*get_integer)(ipp_attribute_t *attribute, int element);
    const char *(*get_string)(ipp_attribute_t *attribute, int element, const char **language);
    int (*get_count)(ipp_attribute_t *attribute);
    void (*delete_ipp)(ipp_t *ipp);
    void (*close_http)(http_t *http);
    int (*check_dest_supported)(http_t *http, cups_dest_t *dest, cups_dinfo_t *info, const char *option, const char *value);
    ipp_attribute_t *(*find_dest_supported)(http_t *http, cups_dest_t *dest, cups_dinfo_t *info, const char *option);
    ipp_attribute_t *(*find_dest_default)(http_t *http, cups_dest_t *dest, cups_dinfo_t *info, const char *option);
    int (*get_resolution)(ipp_attribute_t *attribute, int element, int *yres, ipp_res_t *units);
    pwg_media_t *(*media_for_pwg)(const char *pwg);
    cups_raster_t *(*raster_open_io)(cups_raster_iocb_t iocb, void *ctx, cups_mode_t mode);
    int (*raster_init_pwg_header)(cups_page_header2_t *h, pwg_media_t *media, const char *type, int xdpi, int ydpi,
                                  const char *sides, const char *sheet_back);
    unsigned (*raster_write_header)(cups_raster_t *r, cups_page_header2_t *h);
    unsigned (*raster_write_pixels)(cups_raster_t *r, unsigned char *p, unsigned len);
    void (*raster_close)(cups_raster_t *r);
} camctl_cups;

// Loads libcups and finds its functions; 0 when it is not installed or lacks one.
static inline int camctl_cups_load(camctl_cups *api) {
    void *library = dlopen("libcups.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
#define CAMCTL_FIND(field, name) *(void **)(&api->field) = dlsym(library, name); if (!api->field) return 0
    CAMCTL_FIND(get_named_dest, "cupsGetNamedDest");
    CAMCTL_FIND(get_dest_with_uri, "cupsGetDestWithURI");
    CAMCTL_FIND(free_dests, "cupsFreeDests");
    CAMCTL_FIND(connect_dest, "cupsConnectDest");
    CAMCTL_FIND(copy_dest_info, "cupsCopyDestInfo");
    CAMCTL_FIND(free_dest_info, "cupsFreeDestInfo");
    CAMCTL_FIND(create_dest_job, "cupsCreateDestJob");
    CAMCTL_FIND(start_dest_document, "cupsStartDestDocument");
    CAMCTL_FIND(write_request_data, "cupsWriteRequestData");
    CAMCTL_FIND(finish_dest_document, "cupsFinishDestDocument");
    CAMCTL_FIND(add_option, "cupsAddOption");
    CAMCTL_FIND(free_options, "cupsFreeOptions");
    CAMCTL_FIND(get_option, "cupsGetOption");
    CAMCTL_FIND(last_error_string, "cupsLastErrorString");
    CAMCTL_FIND(new_request, "ippNewRequest");
    CAMCTL_FIND(add_string, "ippAddString");
    CAMCTL_FIND(add_integer, "ippAddInteger");
    CAMCTL_FIND(do_request, "cupsDoRequest");
    CAMCTL_FIND(find_attribute, "ippFindAttribute");
    CAMCTL_FIND(get_integer, "ippGetInteger");
    CAMCTL_FIND(get_string, "ippGetString");
    CAMCTL_FIND(get_count, "ippGetCount");
    CAMCTL_FIND(delete_ipp, "ippDelete");
    CAMCTL_FIND(close_http, "httpClose");
    CAMCTL_FIND(check_dest_supported, "cupsCheckDestSupported");
    CAMCTL_FIND(find_dest_supported, "cupsFindDestSupported");
    CAMCTL_FIND(find_dest_default, "cupsFindDestDefault");
    CAMCTL_FIND(get_resolution, "ippGetResolution");
    CAMCTL_FIND(media_for_pwg, "pwgMediaForPWG");
    CAMCTL_FIND(raster_open_io, "cupsRasterOpenIO");
    CAMCTL_FIND(raster_init_pwg_header, "cupsRasterInitPWGHeader");
    CAMCTL_FIND(raster_write_header, "cupsRasterWriteHeader2");
    CAMCTL_FIND(raster_write_pixels, "cupsRasterWritePixels");
    CAMCTL_FIND(raster_close, "cupsRasterClose");
#undef CAMCTL_FIND
    return 1;
}

// A destination's options, which Swift cannot read through cups_dest_t's pointer fields alone.
static inline const char *camctl_cups_dest_option(const camctl_cups *api, cups_dest_t *dest, const char *name) {
    return api->get_option(name, dest->num_options, dest->options);
}
// A raster page written straight into a document being sent: libcups's raster writer calls
// this with what it encoded, and it goes to the printer's connection.
typedef struct {
    const camctl_cups *api;
    http_t *http;
} camctl_cups_document;

static inline ssize_t camctl_cups_write_document(void *context, unsigned char *buffer, size_t length) {
    camctl_cups_document *document = context;
    return document->api->write_request_data(document->http, (const char *)buffer, length) == HTTP_STATUS_CONTINUE ? (ssize_t)length : -1;
}

// Opens a raster writer into `document`, PWG raster or Apple raster (`apple` not 0).
static inline cups_raster_t *camctl_cups_raster_open(camctl_cups_document *document, int apple) {
    return document->api->raster_open_io(camctl_cups_write_document, document, apple ? CUPS_RASTER_WRITE_APPLE : CUPS_RASTER_WRITE_PWG);
}

// Sets a page header's total page count, which PWG and Apple raster readers take from it.
static inline void camctl_cups_raster_set_pages(cups_page_header2_t *header, unsigned pages) {
    header->cupsInteger[CUPS_RASTER_PWG_TotalPageCount] = pages;
}
#endif
