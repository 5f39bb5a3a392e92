/* SPDX-License-Identifier: Apache-2.0 */
#include "topdown/run.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "topdown/error.h"
#include "util/grow.h"

void td_values_clear(struct td_values *v)
{
	memset(v, 0, sizeof *v);
}

void td_values_set(struct td_values *v, enum td_node node, double frac, int derived)
{
	if (node < 0 || node >= TD_NODE_COUNT)
		return;
	v->frac[node] = frac;
	v->set[node] = 1;
	v->derived[node] = derived ? 1 : 0;
}

void td_run_init(struct td_run *run)
{
	memset(run, 0, sizeof *run);
}

void td_run_fini(struct td_run *run)
{
	if (!run)
		return;
	char **fields[] = { &run->name, &run->workload, &run->host, &run->isa,
			    &run->cpu, &run->tool, &run->method, &run->source };
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		free(*fields[i]);
	for (size_t i = 0; i < run->n_iv; i++) {
		struct td_interval *iv = &run->iv[i];
		for (size_t j = 0; j < iv->n_events; j++)
			free(iv->events[j].name);
		free(iv->events);
		free(iv->scope);
	}
	free(run->iv);
	memset(run, 0, sizeof *run);
}

int td_run_set(char **field, const char *value)
{
	char *copy = NULL;
	if (value && !(copy = strdup(value)))
		return -spe_nomem;
	free(*field);
	*field = copy;
	return 0;
}

struct td_interval *td_run_interval(struct td_run *run, double t0, const char *scope)
{
	if (!scope || !*scope)
		scope = "all";
	for (size_t i = run->n_iv; i-- > 0;) {
		if (run->iv[i].t0 == t0 && strcmp(run->iv[i].scope, scope) == 0)
			return &run->iv[i];
	}
	struct td_interval *grown = util_grow(run->iv, &run->cap_iv, run->n_iv + 1, sizeof *grown);
	if (!grown)
		return NULL;
	run->iv = grown;
	struct td_interval *iv = &run->iv[run->n_iv];
	memset(iv, 0, sizeof *iv);
	iv->t0 = t0;
	iv->t1 = -1;
	if (!(iv->scope = strdup(scope)))
		return NULL;
	run->n_iv++;
	return iv;
}

int td_interval_add_event(struct td_interval *iv, const char *name, double value, int counted)
{
	for (size_t i = 0; i < iv->n_events; i++) {
		if (strcasecmp(iv->events[i].name, name) == 0) {
			if (!iv->events[i].counted && counted) {
				iv->events[i].value = value;
				iv->events[i].counted = counted;
			}
			return 0;
		}
	}
	struct td_event_count *ev = util_grow(iv->events, &iv->cap_events, iv->n_events + 1, sizeof *ev);
	if (!ev)
		return -spe_nomem;
	iv->events = ev;
	char *copy = strdup(name);
	if (!copy)
		return -spe_nomem;
	iv->events[iv->n_events++] = (struct td_event_count){ copy, value, counted };
	return 0;
}

const struct td_event_count *td_interval_event(const struct td_interval *iv, const char *name)
{
	for (size_t i = 0; i < iv->n_events; i++) {
		if (strcasecmp(iv->events[i].name, name) == 0)
			return &iv->events[i];
	}
	return NULL;
}

size_t td_run_value_count(const struct td_run *run)
{
	size_t n = 0;
	for (size_t i = 0; i < run->n_iv; i++)
		for (int k = 0; k < TD_NODE_COUNT; k++)
			n += run->iv[i].values.set[k];
	return n;
}

void td_run_default(struct td_run *run, const char *isa, const char *method)
{
	if (!run->isa)
		td_run_set(&run->isa, isa);
	if (!run->method)
		td_run_set(&run->method, method);
}
