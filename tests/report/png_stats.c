/* SPDX-License-Identifier: Apache-2.0 */
/*
 * png_stats FILE [RRGGBB...]: what a screenshot shows, for the browser test.
 * Prints "WIDTH HEIGHT COLOURS INK" (distinct colours, and the share of
 * pixels that differ from the most common one, the background, in
 * thousandths), then for each colour asked for, "RRGGBB N": how many pixels
 * have exactly that colour.  Exit 1 when the file is not a PNG libpng reads.
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: png_stats FILE [RRGGBB...]\n");
		return 2;
	}
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, argv[1])) {
		fprintf(stderr, "png_stats: %s: %s\n", argv[1], img.message);
		return 1;
	}
	img.format = PNG_FORMAT_RGB;
	size_t n = (size_t)img.width * img.height;
	unsigned char *px = malloc(PNG_IMAGE_SIZE(img));
	unsigned *rgb = malloc(n * sizeof *rgb);
	if (!px || !rgb || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
		fprintf(stderr, "png_stats: %s: %s\n", argv[1], img.message);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		rgb[i] = (unsigned)px[3 * i] << 16 | (unsigned)px[3 * i + 1] << 8 | px[3 * i + 2];
	unsigned *sorted = malloc(n * sizeof *sorted);
	if (!sorted)
		return 1;
	memcpy(sorted, rgb, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, by_value);
	size_t colours = 0, best = 0, run = 0;
	for (size_t i = 0; i < n; i++) {
		run = i && sorted[i] == sorted[i - 1] ? run + 1 : 1;
		colours += run == 1;
		if (run > best)
			best = run;
	}
	printf("%u %u %zu %zu\n", img.width, img.height, colours, n ? (n - best) * 1000 / n : 0);
	for (int a = 2; a < argc; a++) {
		unsigned want = (unsigned)strtoul(argv[a], NULL, 16);
		size_t count = 0;
		for (size_t i = 0; i < n; i++)
			count += rgb[i] == want;
		printf("%06x %zu\n", want, count);
	}
	free(sorted);
	free(rgb);
	free(px);
	return 0;
}
