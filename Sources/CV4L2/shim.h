// The C bridge to the kernel's V4L2 control interface (linux/videodev2.h, from linux-libc-dev).
// ioctl request numbers and control ids are macro expressions Swift cannot import; these shims
// give them names.
#ifndef CAMCTL_CV4L2_SHIM_H
#define CAMCTL_CV4L2_SHIM_H

#include <linux/videodev2.h>
#include <sys/ioctl.h>

static inline int cv4l2_query_control(int fd, struct v4l2_queryctrl *query) { return ioctl(fd, VIDIOC_QUERYCTRL, query); }
static inline int cv4l2_query_menu(int fd, struct v4l2_querymenu *menu) { return ioctl(fd, VIDIOC_QUERYMENU, menu); }
static inline int cv4l2_get_control(int fd, struct v4l2_control *control) { return ioctl(fd, VIDIOC_G_CTRL, control); }
static inline int cv4l2_set_control(int fd, struct v4l2_control *control) { return ioctl(fd, VIDIOC_S_CTRL, control); }

static inline unsigned int cv4l2_flag_next_control(void) { return V4L2_CTRL_FLAG_NEXT_CTRL; }
static inline unsigned int cv4l2_flag_disabled(void) { return V4L2_CTRL_FLAG_DISABLED; }
static inline unsigned int cv4l2_flag_read_only(void) { return V4L2_CTRL_FLAG_READ_ONLY; }

static inline unsigned int cv4l2_cid_flash_led_mode(void) { return V4L2_CID_FLASH_LED_MODE; }
static inline unsigned int cv4l2_cid_flash_strobe(void) { return V4L2_CID_FLASH_STROBE; }
static inline unsigned int cv4l2_cid_flash_strobe_stop(void) { return V4L2_CID_FLASH_STROBE_STOP; }
static inline int cv4l2_flash_led_mode_none(void) { return V4L2_FLASH_LED_MODE_NONE; }
static inline int cv4l2_flash_led_mode_flash(void) { return V4L2_FLASH_LED_MODE_FLASH; }

#endif
