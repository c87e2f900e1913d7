// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The /proc/kallsyms reader on a fixture file: function symbols only (module
 * ones too), exact lookup, and the near matches a missing kprobe symbol is
 * named with. Then, when readable, this machine's /proc/kallsyms. And the
 * reading of debugfs kprobes/list, on lines as Linux 6.1 prints them. No root needed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "kallsyms.h"
#include "kprobe_list.h"

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif

static void check_near(const struct lb_kallsyms *ks, const char *name, const char *want)
{
	char buf[256];

	lb_kallsyms_near(ks, name, buf, sizeof(buf));
	T_CHECK_STR(buf, want);
}

/* kprobes/list as kernel/kprobes.c's report_probe() prints it. */
static void test_kprobe_list(void)
{
	static const char list[] =
		"ffffffff81a01990  k  __dev_queue_xmit+0x0    [FTRACE]\n"
		"ffffffff81a3c5a5  k  schedule+0x5    \n"
		"ffffffff81a3c5a0  k  schedule+0x0    [FTRACE]\n"
		"ffffffff81a3c5a0  r  schedule+0x0    [FTRACE]\n"
		"ffffffff81a12345  k  consume_skb+0x5    [OPTIMIZED]\n"
		"ffffffff81a20004  k  try_to_wake_up+0x4    [FTRACE]\n"
		"ffffffff81a30000  k  handle_irq_event+0x5    [DISABLED]\n"
		"ffffffff81a40000  k  x64_sys_call+0x5    [GONE]\n"
		"ffffffffc0a01005  k  e1000_xmit_frame+0x5  e1000 \n"
		"0000000000000000  k  __netif_rx+0x0    [DISABLED][FTRACE]\n";

	T_CHECK(lb_kprobe_list_find(list, "__dev_queue_xmit", 0, false) == LB_SEEN_FTRACE);
	T_CHECK(lb_kprobe_list_find(list, "schedule", 5, false) == LB_SEEN_BREAKPOINT);
	T_CHECK(lb_kprobe_list_find(list, "schedule", 0, false) == LB_SEEN_FTRACE);
	T_CHECK(lb_kprobe_list_find(list, "schedule", 0, true) == LB_SEEN_FTRACE);
	T_CHECK(lb_kprobe_list_find(list, "consume_skb", 5, false) == LB_SEEN_OPTIMIZED);
	/* An entry kprobe the kernel moved past endbr64 is still the entry one. */
	T_CHECK(lb_kprobe_list_find(list, "try_to_wake_up", 0, false) == LB_SEEN_FTRACE);
	T_CHECK(lb_kprobe_list_find(list, "try_to_wake_up", 9, false) == LB_SEEN_UNKNOWN);
	T_CHECK(lb_kprobe_list_find(list, "handle_irq_event", 5, false) == LB_SEEN_DISABLED);
	T_CHECK(lb_kprobe_list_find(list, "x64_sys_call", 5, false) == LB_SEEN_DISABLED);
	T_CHECK(lb_kprobe_list_find(list, "e1000_xmit_frame", 5, false) == LB_SEEN_BREAKPOINT);
	T_CHECK(lb_kprobe_list_find(list, "__netif_rx", 0, false) == LB_SEEN_DISABLED);
	/* Not listed: another symbol that starts the same, another kind, nothing. */
	T_CHECK(lb_kprobe_list_find(list, "__dev_queue", 0, false) == LB_SEEN_UNKNOWN);
	T_CHECK(lb_kprobe_list_find(list, "consume_skb", 5, true) == LB_SEEN_UNKNOWN);
	T_CHECK(lb_kprobe_list_find(list, "sched", 0, false) == LB_SEEN_UNKNOWN);
	T_CHECK(lb_kprobe_list_find("", "schedule", 0, false) == LB_SEEN_UNKNOWN);
	T_CHECK(lb_kprobe_list_find("garbage\n  k\nk k k+0x\n", "k", 0, false) ==
		LB_SEEN_UNKNOWN);
	{
		char buf[256];

		T_CHECK(lb_kprobe_list_entries(list, "schedule", buf, sizeof(buf)) == 3);
		T_CHECK_STR(buf, "k schedule+0x5; k schedule+0x0 [FTRACE]; r schedule+0x0 [FTRACE]");
		T_CHECK(lb_kprobe_list_entries(list, "sched", buf, sizeof(buf)) == 0);
		T_CHECK_STR(buf, "");
		T_CHECK(lb_kprobe_list_entries(list, "e1000_xmit_frame", buf, 12) == 1);
		T_CHECK(strlen(buf) == 11);
	}
	T_CHECK_STR(lb_kprobe_seen_name(LB_SEEN_BREAKPOINT), "breakpoint");
	T_CHECK_STR(lb_kprobe_seen_name(LB_SEEN_FTRACE), "ftrace");
	T_CHECK_STR(lb_kprobe_seen_name(LB_SEEN_OPTIMIZED), "optimized");
	T_CHECK_STR(lb_kprobe_seen_name(LB_SEEN_UNKNOWN), "unknown");
}

int main(void)
{
	struct lb_kallsyms *ks = NULL;
	int ret;

	test_kprobe_list();
	T_CHECK(lb_kallsyms_load(LB_SRCDIR "/tests/fixtures/no-such-file", &ks) == -ENOENT);
	T_CHECK(ks == NULL);
	ret = lb_kallsyms_load(LB_SRCDIR "/tests/fixtures/kallsyms", &ks);
	T_CHECK(ret == 0);
	if (ret)
		return t_exit();
	T_CHECK(lb_kallsyms_count(ks) == 14);
	T_CHECK(lb_kallsyms_has(ks, "dev_hard_start_xmit"));
	T_CHECK(lb_kallsyms_has(ks, "__netif_receive_skb_one_core"));
	T_CHECK(lb_kallsyms_has(ks, "__netif_receive_skb_core.constprop.0"));
	T_CHECK(lb_kallsyms_has(ks, "weak_function"));
	T_CHECK(lb_kallsyms_has(ks, "e1000_clean"));
	T_CHECK(lb_kallsyms_has(ks, "x64_sys_call"));
	T_CHECK(!lb_kallsyms_has(ks, "netdev_data_not_code"));	/* data */
	T_CHECK(!lb_kallsyms_has(ks, "e1000_data"));
	T_CHECK(!lb_kallsyms_has(ks, "fixed_percpu_data"));
	T_CHECK(!lb_kallsyms_has(ks, "__netif_receive_skb_core"));
	T_CHECK(!lb_kallsyms_has(ks, "netif_r"));
	T_CHECK(!lb_kallsyms_has(ks, ""));
	T_CHECK(!lb_kallsyms_has(ks, "zzz"));

	check_near(ks, "__netif_receive_skb_core", "__netif_receive_skb_core.constprop.0");
	check_near(ks, "netif_receive_skb_core", "__netif_receive_skb_core.constprop.0");
	check_near(ks, "skb_release_data", "skb_release_data.isra.0");
	check_near(ks, "skb_release_data.constprop.0", "skb_release_data.isra.0");
	check_near(ks, "dev_queue_xmit", "__dev_queue_xmit, __dev_queue_xmit.cold");
	check_near(ks, "_netif_rx", "netif_rx");
	check_near(ks, "__consume_skb", "consume_skb");
	check_near(ks, "tcp_sendmsg", "");
	{
		unsigned long size = 0;

		/* To the next function (data symbols do not end one). */
		T_CHECK(lb_kallsyms_size(ks, "dev_hard_start_xmit", &size) == 0 && size == 0x760);
		T_CHECK(lb_kallsyms_size(ks, "netif_rx", &size) == 0 && size == 0x80);
		T_CHECK(lb_kallsyms_size(ks, "consume_skb", &size) == 0 && size == 0x1070);
		T_CHECK(lb_kallsyms_size(ks, "e1000_xmit_frame", &size) == -ENODATA);	/* last */
		T_CHECK(lb_kallsyms_size(ks, "netdev_data_not_code", &size) == -ENOENT);
		T_CHECK(lb_kallsyms_size(ks, "zzz", &size) == -ENOENT);
	}
	lb_kallsyms_free(ks);
	lb_kallsyms_free(NULL);

	/* This machine's: the functions every kernel has. */
	ks = NULL;
	if (lb_kallsyms_load(NULL, &ks) == 0) {
		T_CHECK(lb_kallsyms_count(ks) > 1000);
		T_CHECK(lb_kallsyms_has(ks, "schedule"));
		T_CHECK(lb_kallsyms_has(ks, "consume_skb"));
		lb_kallsyms_free(ks);
	}
	return t_exit();
}
