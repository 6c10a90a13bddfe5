// libqrencode's public header: the QR code printed at start for a phone on the network.
#include <qrencode.h>
