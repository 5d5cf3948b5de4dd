/* Known bytes for the user_* readers (golden tapset_user_readers): on the
 * stack, so the pages are present when the uprobe on take() reads them. */
#include <stdio.h>

#define NOIPA __attribute__((noipa))

NOIPA int take(const unsigned char *bytes, const char *text)
{
    return bytes[0] + text[0];
}

int main(void)
{
    unsigned char bytes[16] = {0xff, 0x80, 0x7f, 0x01, 0xfe, 0xff, 0xff, 0xff,
                               0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x81};
    char text[] = "hello, world";
    return take(bytes, text) == 0;
}
