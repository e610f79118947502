// libqrencode: QR codes from text.
#include <qrencode.h>
