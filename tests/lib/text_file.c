/* SPDX-License-Identifier: Apache-2.0 */
#include "text_file.h"

#include <stdio.h>
#include <stdlib.h>

char *test_read_text(const char *dir, const char *name, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long size = -1;
	if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
		buf = malloc((size_t)size + 1);
	if (!buf) {
		printf("  cannot open %s\n", path);
		if (f)
			fclose(f);
		return NULL;
	}
	size_t n = fread(buf, 1, (size_t)size, f);
	fclose(f);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}
