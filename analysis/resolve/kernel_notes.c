/* SPDX-License-Identifier: Apache-2.0 */
/* The running kernel's build-id from its notes (kernel_notes.h). */
#include "kernel_notes.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NT_GNU_BUILD_ID 3
#define NOTES_MAX 65536 /* the kernel's .notes is a few hundred bytes */

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int ana_notes_build_id(const uint8_t *buf, size_t len, char hex[KERNEL_BID_HEX_MAX])
{
	hex[0] = 0;
	/* the kernel writes its notes in its own byte order: arm64 and x86 kernels are little-endian */
	for (size_t at = 0; len - at >= 12;) {
		uint32_t namesz = le32(buf + at), descsz = le32(buf + at + 4), type = le32(buf + at + 8);
		size_t name = at + 12;
		if (namesz > len - name || pad4(namesz) > len - name)
			return 0;
		size_t desc = name + pad4(namesz);
		if (descsz > len - desc)
			return 0;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + name, "GNU", 4)) {
			if (!descsz || 2 * (size_t)descsz >= KERNEL_BID_HEX_MAX)
				return 0;
			for (uint32_t i = 0; i < descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", buf[desc + i]);
			return 1;
		}
		if (pad4(descsz) > len - desc)
			return 0;
		at = desc + pad4(descsz);
	}
	return 0;
}

int ana_kernel_notes_build_id(const char *path, char hex[KERNEL_BID_HEX_MAX])
{
	hex[0] = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	uint8_t buf[NOTES_MAX];
	size_t len = 0;
	ssize_t n;
	while (len < sizeof buf && (n = read(fd, buf + len, sizeof buf - len)) > 0)
		len += (size_t)n;
	close(fd);
	return n < 0 ? -1 : ana_notes_build_id(buf, len, hex);
}
