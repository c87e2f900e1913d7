// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A babeltrace2 graph: src.ctf.fs reads the trace, one simple sink per
 * output port (one per data stream: no muxer needed to count) takes the
 * messages and counts event and packet-beginning messages. In-process, so
 * nothing is parsed from a tool's text output and no process is spawned.
 * src.ctf.fs takes trace directories (those holding a `metadata' file), not a
 * tree: LTTng writes DIR/kernel/, so the tree is searched for them first.
 */
#define LB_CTF_MAX_DEPTH 4	/* LTTng: DIR/kernel, DIR/ust/uid/N/64-bit */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <babeltrace2/babeltrace.h>

#include "ctf_count.h"
#include "unavailable.h"

struct counter {
	struct lb_ctf_counts *c;
	const uint64_t *edges;
	size_t n;
	struct lb_ctf_buckets *b;
	bool clock_error;
};

/* The bucket of time @t: how many edges are at or before it. */
static size_t bucket_of(const struct counter *k, uint64_t t)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->edges[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const bt_plugin *find_ctf_plugin(void)
{
	const bt_plugin *plugin = NULL;

	if (bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE, &plugin) !=
	    BT_PLUGIN_FIND_STATUS_OK)
		return NULL;
	return plugin;
}

int lb_ctf_available(char *why, size_t len)
{
	const bt_plugin *plugin = find_ctf_plugin();

	if (!plugin) {
		lb_unavailable_say(LB_UNAVAIL_BABELTRACE, why, len, "cannot find babeltrace2's ctf "
				   "plugin (babeltrace-plugin-ctf.so), which reads the trace back to "
				   "count its events: apt-get install libbabeltrace2-0");
		return -ENOENT;
	}
	bt_plugin_put_ref(plugin);
	return 0;
}

/* The clock snapshot @cs in ns (LTTng's kernel clock counts ns: frequency 1 GHz). */
static uint64_t snapshot_ns(const bt_clock_snapshot *cs)
{
	uint64_t v = bt_clock_snapshot_get_value(cs);
	uint64_t freq = bt_clock_class_get_frequency(bt_clock_snapshot_borrow_clock_class_const(cs));

	if (freq == 1000000000ULL || !freq)
		return v;
	return (uint64_t)((long double)v * 1e9L / (long double)freq);
}

static bt_graph_simple_sink_component_consume_func_status count_messages(bt_message_iterator *it,
									  void *data)
{
	struct counter *k = data;
	bt_message_array_const msgs;
	uint64_t n;

	switch (bt_message_iterator_next(it, &msgs, &n)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
	default:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	for (uint64_t i = 0; i < n; i++) {
		const bt_message *m = msgs[i];

		switch (bt_message_get_type(m)) {
		case BT_MESSAGE_TYPE_EVENT: {
			const bt_event *ev = bt_message_event_borrow_event_const(m);
			const bt_stream_class *sc = bt_stream_borrow_class_const(
				bt_event_borrow_stream_const(ev));
			uint64_t t;

			k->c->all_events++;
			if (!bt_stream_class_borrow_default_clock_class_const(sc)) {
				k->clock_error = true;
				break;
			}
			t = snapshot_ns(bt_message_event_borrow_default_clock_snapshot_const(m));
			k->b->events[bucket_of(k, t)]++;
			break;
		}
		case BT_MESSAGE_TYPE_DISCARDED_EVENTS: {
			const bt_stream_class *sc = bt_stream_borrow_class_const(
				bt_message_discarded_events_borrow_stream_const(m));
			uint64_t cnt = 1, t;

			if (!bt_stream_class_discarded_events_have_default_clock_snapshots(sc)) {
				k->clock_error = true;
				break;
			}
			/* An unknown count is at least one. */
			if (bt_message_discarded_events_get_count(m, &cnt) !=
			    BT_PROPERTY_AVAILABILITY_AVAILABLE)
				cnt = 1;
			t = snapshot_ns(
				bt_message_discarded_events_borrow_end_default_clock_snapshot_const(m));
			k->b->discarded_events[bucket_of(k, t)] += cnt;
			break;
		}
		case BT_MESSAGE_TYPE_DISCARDED_PACKETS: {
			const bt_stream_class *sc = bt_stream_borrow_class_const(
				bt_message_discarded_packets_borrow_stream_const(m));
			uint64_t cnt = 1, t;

			if (!bt_stream_class_discarded_packets_have_default_clock_snapshots(sc)) {
				k->clock_error = true;
				break;
			}
			if (bt_message_discarded_packets_get_count(m, &cnt) !=
			    BT_PROPERTY_AVAILABILITY_AVAILABLE)
				cnt = 1;
			t = snapshot_ns(
				bt_message_discarded_packets_borrow_end_default_clock_snapshot_const(m));
			k->b->discarded_packets[bucket_of(k, t)] += cnt;
			break;
		}
		case BT_MESSAGE_TYPE_PACKET_BEGINNING:
			k->c->packets++;
			break;
		default:
			break;
		}
		bt_message_put_ref(m);
	}
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* The first cause babeltrace2 recorded for its last error (the root cause), into @buf. */
static const char *bt_reason(char *buf, size_t len)
{
	const bt_error *e = bt_current_thread_take_error();
	uint64_t n = e ? bt_error_get_cause_count(e) : 0;

	snprintf(buf, len, "%s", n ? bt_error_cause_get_message(
			bt_error_borrow_cause_by_index(e, 0)) : "no reason given");
	if (e)
		bt_error_release(e);
	return buf;
}

/* Append every directory below @dir (itself included) that holds a CTF metadata file to @inputs. */
static int add_trace_dirs(bt_value *inputs, const char *dir, int depth, int *found)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		(*found)++;
		return bt_value_array_append_string_element(inputs, dir) ? -ENOMEM : 0;
	}
	if (depth >= LB_CTF_MAX_DEPTH)
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			ret = add_trace_dirs(inputs, path, depth + 1, found);
	}
	closedir(d);
	return ret;
}

int lb_ctf_count(const char *dir, const uint64_t *edges, size_t n, struct lb_ctf_buckets *b,
		 struct lb_ctf_counts *c, char *err, size_t len)
{
	struct counter k = { .c = c, .edges = edges, .n = n, .b = b };
	const bt_component_class_source *fs;
	const bt_component_source *src = NULL;
	const bt_plugin *plugin;
	bt_value *params = NULL, *inputs = NULL;
	char why[256];
	bt_graph *graph = NULL;
	bt_graph_run_status st;
	uint64_t nports;
	int ret = -ENOMEM, ntraces = 0;

	memset(c, 0, sizeof(*c));
	memset(b->events, 0, (n + 1) * sizeof(*b->events));
	memset(b->discarded_events, 0, (n + 1) * sizeof(*b->discarded_events));
	memset(b->discarded_packets, 0, (n + 1) * sizeof(*b->discarded_packets));
	for (size_t i = 1; i < n; i++) {
		if (edges[i] < edges[i - 1]) {
			snprintf(err, len, "cannot count the LTTng trace in %s by time: edge %zu "
				 "(%llu ns) is before edge %zu", dir, i,
				 (unsigned long long)edges[i], i - 1);
			return -EINVAL;
		}
	}
	plugin = find_ctf_plugin();
	if (!plugin)
		return lb_ctf_available(err, len);
	fs = bt_plugin_borrow_source_component_class_by_name_const(plugin, "fs");
	graph = bt_graph_create(0);
	params = bt_value_map_create();
	if (!fs || !graph || !params)
		goto out;
	if (bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) ||
	    add_trace_dirs(inputs, dir, 0, &ntraces))
		goto out;
	if (!ntraces) {
		snprintf(err, len, "LTTng wrote no trace into %s (no CTF metadata file below it)",
			 dir);
		ret = -ENOENT;
		goto out;
	}
	if (bt_graph_add_source_component(graph, fs, "trace", params, BT_LOGGING_LEVEL_NONE,
					  &src) != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		snprintf(err, len, "babeltrace2 cannot read the LTTng trace in %s: %s", dir,
			 bt_reason(why, sizeof(why)));
		ret = -EIO;
		goto out;
	}
	nports = bt_component_source_get_output_port_count(src);
	for (uint64_t i = 0; i < nports; i++) {
		const bt_component_sink *sink;
		char name[32];

		snprintf(name, sizeof(name), "count%llu", (unsigned long long)i);
		if (bt_graph_add_simple_sink_component(graph, name, NULL, count_messages, NULL, &k,
						       &sink) != BT_GRAPH_ADD_COMPONENT_STATUS_OK)
			goto out;
		if (bt_graph_connect_ports(graph,
				bt_component_source_borrow_output_port_by_index_const(src, i),
				bt_component_sink_borrow_input_port_by_index_const(sink, 0),
				NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
			goto out;
	}
	do {
		st = bt_graph_run(graph);
	} while (st == BT_GRAPH_RUN_STATUS_AGAIN);
	if (st != BT_GRAPH_RUN_STATUS_OK) {
		snprintf(err, len, "babeltrace2 failed reading the LTTng trace in %s: %s", dir,
			 bt_reason(why, sizeof(why)));
		ret = -EIO;
		goto out;
	}
	if (k.clock_error) {
		snprintf(err, len, "the LTTng trace in %s has events or losses without timestamps: "
			 "cannot tell which fell in the measured window", dir);
		ret = -EPROTO;
		goto out;
	}
	ret = 0;
out:
	if (ret == -ENOMEM)
		snprintf(err, len, "cannot build a babeltrace2 graph to read %s: out of memory", dir);
	bt_current_thread_clear_error();
	bt_value_put_ref(params);
	bt_graph_put_ref(graph);
	bt_plugin_put_ref(plugin);
	return ret;
}
