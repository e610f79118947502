// libgphoto2, loaded when a DSLR or mirrorless camera is first asked for or listed (dlopen) rather
// than linked: most camctl runs drive no such camera, and libgphoto2 loads its port and camera
// drivers (libusb, libexif) as it starts. Its types come from its headers; its functions from the
// library found at run time, which may be another build of the same version (a test's, with the
// virtual camera).
#ifndef CAMCTL_CGPHOTO2_SHIM_H
#define CAMCTL_CGPHOTO2_SHIM_H
#include <dlfcn.h>
#include <gphoto2/gphoto2.h>

// The functions camctl calls, from the loaded library.
typedef struct {
    GPContext *(*context_new)(void);
    void (*context_unref)(GPContext *context);
    int (*list_new)(CameraList **list);
    int (*list_free)(CameraList *list);
    int (*list_count)(CameraList *list);
    int (*list_get_name)(CameraList *list, int index, const char **name);
    int (*list_get_value)(CameraList *list, int index, const char **value);
    int (*camera_autodetect)(CameraList *list, GPContext *context);
    int (*abilities_list_new)(CameraAbilitiesList **list);
    int (*abilities_list_load)(CameraAbilitiesList *list, GPContext *context);
    int (*abilities_list_lookup_model)(CameraAbilitiesList *list, const char *model);
    int (*abilities_list_get_abilities)(CameraAbilitiesList *list, int index, CameraAbilities *abilities);
    int (*abilities_list_free)(CameraAbilitiesList *list);
    int (*port_info_list_new)(GPPortInfoList **list);
    int (*port_info_list_load)(GPPortInfoList *list);
    int (*port_info_list_lookup_path)(GPPortInfoList *list, const char *path);
    int (*port_info_list_get_info)(GPPortInfoList *list, int index, GPPortInfo *info);
    int (*port_info_list_free)(GPPortInfoList *list);
    int (*camera_new)(Camera **camera);
    int (*camera_set_abilities)(Camera *camera, CameraAbilities abilities);
    int (*camera_set_port_info)(Camera *camera, GPPortInfo info);
    int (*camera_init)(Camera *camera, GPContext *context);
    int (*camera_exit)(Camera *camera, GPContext *context);
    int (*camera_unref)(Camera *camera);
    int (*camera_capture)(Camera *camera, CameraCaptureType type, CameraFilePath *path, GPContext *context);
    int (*camera_capture_preview)(Camera *camera, CameraFile *file, GPContext *context);
    int (*camera_wait_for_event)(Camera *camera, int timeout, CameraEventType *type, void **data, GPContext *context);
    int (*camera_file_get)(Camera *camera, const char *folder, const char *name, CameraFileType type, CameraFile *file,
                           GPContext *context);
    int (*camera_file_delete)(Camera *camera, const char *folder, const char *name, GPContext *context);
    int (*camera_get_config)(Camera *camera, CameraWidget **window, GPContext *context);
    int (*camera_set_config)(Camera *camera, CameraWidget *window, GPContext *context);
    int (*file_new)(CameraFile **file);
    int (*file_unref)(CameraFile *file);
    int (*file_get_data_and_size)(CameraFile *file, const char **data, unsigned long *size);
    int (*widget_free)(CameraWidget *widget);
    int (*widget_count_children)(CameraWidget *widget);
    int (*widget_get_child)(CameraWidget *widget, int index, CameraWidget **child);
    int (*widget_get_child_by_name)(CameraWidget *widget, const char *name, CameraWidget **child);
    int (*widget_get_name)(CameraWidget *widget, const char **name);
    int (*widget_get_label)(CameraWidget *widget, const char **label);
    int (*widget_get_type)(CameraWidget *widget, CameraWidgetType *type);
    int (*widget_get_readonly)(CameraWidget *widget, int *readonly);
    int (*widget_get_value)(CameraWidget *widget, void *value);
    int (*widget_set_value)(CameraWidget *widget, const void *value);
    int (*widget_count_choices)(CameraWidget *widget);
    int (*widget_get_choice)(CameraWidget *widget, int index, const char **choice);
    int (*widget_get_range)(CameraWidget *widget, float *minimum, float *maximum, float *increment);
    const char *(*result_as_string)(int result);
} camctl_gphoto2;

// Loads libgphoto2 and finds its functions; 0 when it is not installed or lacks one.
static inline int camctl_gphoto2_load(camctl_gphoto2 *api) {
    void *library = dlopen("libgphoto2.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
#define CAMCTL_GP_FIND(field, symbol) api->field = (__typeof__(api->field))dlsym(library, symbol); if (!api->field) return 0
    CAMCTL_GP_FIND(context_new, "gp_context_new");
    CAMCTL_GP_FIND(context_unref, "gp_context_unref");
    CAMCTL_GP_FIND(list_new, "gp_list_new");
    CAMCTL_GP_FIND(list_free, "gp_list_free");
    CAMCTL_GP_FIND(list_count, "gp_list_count");
    CAMCTL_GP_FIND(list_get_name, "gp_list_get_name");
    CAMCTL_GP_FIND(list_get_value, "gp_list_get_value");
    CAMCTL_GP_FIND(camera_autodetect, "gp_camera_autodetect");
    CAMCTL_GP_FIND(abilities_list_new, "gp_abilities_list_new");
    CAMCTL_GP_FIND(abilities_list_load, "gp_abilities_list_load");
    CAMCTL_GP_FIND(abilities_list_lookup_model, "gp_abilities_list_lookup_model");
    CAMCTL_GP_FIND(abilities_list_get_abilities, "gp_abilities_list_get_abilities");
    CAMCTL_GP_FIND(abilities_list_free, "gp_abilities_list_free");
    CAMCTL_GP_FIND(port_info_list_new, "gp_port_info_list_new");
    CAMCTL_GP_FIND(port_info_list_load, "gp_port_info_list_load");
    CAMCTL_GP_FIND(port_info_list_lookup_path, "gp_port_info_list_lookup_path");
    CAMCTL_GP_FIND(port_info_list_get_info, "gp_port_info_list_get_info");
    CAMCTL_GP_FIND(port_info_list_free, "gp_port_info_list_free");
    CAMCTL_GP_FIND(camera_new, "gp_camera_new");
    CAMCTL_GP_FIND(camera_set_abilities, "gp_camera_set_abilities");
    CAMCTL_GP_FIND(camera_set_port_info, "gp_camera_set_port_info");
    CAMCTL_GP_FIND(camera_init, "gp_camera_init");
    CAMCTL_GP_FIND(camera_exit, "gp_camera_exit");
    CAMCTL_GP_FIND(camera_unref, "gp_camera_unref");
    CAMCTL_GP_FIND(camera_capture, "gp_camera_capture");
    CAMCTL_GP_FIND(camera_capture_preview, "gp_camera_capture_preview");
    CAMCTL_GP_FIND(camera_wait_for_event, "gp_camera_wait_for_event");
    CAMCTL_GP_FIND(camera_file_get, "gp_camera_file_get");
    CAMCTL_GP_FIND(camera_file_delete, "gp_camera_file_delete");
    CAMCTL_GP_FIND(camera_get_config, "gp_camera_get_config");
    CAMCTL_GP_FIND(camera_set_config, "gp_camera_set_config");
    CAMCTL_GP_FIND(file_new, "gp_file_new");
    CAMCTL_GP_FIND(file_unref, "gp_file_unref");
    CAMCTL_GP_FIND(file_get_data_and_size, "gp_file_get_data_and_size");
    CAMCTL_GP_FIND(widget_free, "gp_widget_free");
    CAMCTL_GP_FIND(widget_count_children, "gp_widget_count_children");
    CAMCTL_GP_FIND(widget_get_child, "gp_widget_get_child");
    CAMCTL_GP_FIND(widget_get_child_by_name, "gp_widget_get_child_by_name");
    CAMCTL_GP_FIND(widget_get_name, "gp_widget_get_name");
    CAMCTL_GP_FIND(widget_get_label, "gp_widget_get_label");
    CAMCTL_GP_FIND(widget_get_type, "gp_widget_get_type");
    CAMCTL_GP_FIND(widget_get_readonly, "gp_widget_get_readonly");
    CAMCTL_GP_FIND(widget_get_value, "gp_widget_get_value");
    CAMCTL_GP_FIND(widget_set_value, "gp_widget_set_value");
    CAMCTL_GP_FIND(widget_count_choices, "gp_widget_count_choices");
    CAMCTL_GP_FIND(widget_get_choice, "gp_widget_get_choice");
    CAMCTL_GP_FIND(widget_get_range, "gp_widget_get_range");
    CAMCTL_GP_FIND(result_as_string, "gp_result_as_string");
#undef CAMCTL_GP_FIND
    return 1;
}

#endif
