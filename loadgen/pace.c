// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the open loop's schedule and ring of requests in flight (pace.h).
 *
 * This file must not include any tracing header.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "pace.h"
#include "sockets.h"

/* Returns a schedule starting now, or NULL (the generator's error slot says why). */
struct lb_pace *lb_pace_start(struct lb_flow *w)
{
	struct lb_pace *p = calloc(1, sizeof(*p));

	if (!p) {
		lb_child_fail(w, LB_CLIENT, ENOMEM, "allocating the open loop's ring",
			      "free some memory, then rerun");
		return NULL;
	}
	p->period = w->sh->period_ns ? w->sh->period_ns : 1;
	p->next = lb_clock_ns();
	p->next_seq = 1;
	p->oldest = 1;
	p->napped = lb_napped_ns();
	/* Default slack is 50 us: a sleep to the next send would end that late. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	return p;
}

void lb_pace_skip_naps(struct lb_pace *p, uint64_t *now)
{
	uint64_t n = lb_napped_ns();

	if (n == p->napped)
		return;
	p->next += n - p->napped;
	p->napped = n;
	*now = lb_clock_ns();
}

/* Returns the sequence number of the request sent now. */
uint64_t lb_pace_take(struct lb_pace *p, struct lb_shared *sh, uint64_t now, uint64_t *expired)
{
	uint64_t seq = p->next_seq++;
	size_t slot = seq % LB_PACE_RING;

	if (p->seq[slot])
		++*expired;
	p->seq[slot] = seq;
	p->when[slot] = p->next;
	if (now > p->next && now - p->next >= p->period)
		atomic_store_explicit(&sh->late, ++p->late, memory_order_relaxed);
	p->next += p->period;
	/* The oldest in flight is at most a ring behind. */
	if (p->next_seq - p->oldest > LB_PACE_RING)
		p->oldest = p->next_seq - LB_PACE_RING;
	return seq;
}

/* Returns @seq's scheduled send time, or 0 when it is not in flight. */
uint64_t lb_pace_answer(struct lb_pace *p, uint64_t seq)
{
	size_t slot = seq % LB_PACE_RING;
	uint64_t when;

	if (!lb_pace_sent(p, seq) || p->seq[slot] != seq)
		return 0;
	when = p->when[slot];
	p->seq[slot] = 0;
	while (p->oldest < p->next_seq && p->seq[p->oldest % LB_PACE_RING] != p->oldest)
		p->oldest++;
	return when;
}

/* Returns how many requests in flight were given up on. */
uint64_t lb_pace_expire(struct lb_pace *p, uint64_t now, uint64_t timeout_ns)
{
	uint64_t n = 0;
	size_t slot;

	while (p->oldest < p->next_seq) {
		slot = p->oldest % LB_PACE_RING;
		if (p->seq[slot] == p->oldest) {
			if (now - p->when[slot] < timeout_ns || now < p->when[slot])
				break;
			p->seq[slot] = 0;
			n++;
		}
		p->oldest++;
	}
	return n;
}

void lb_pace_give_up(struct lb_pace *p, struct lb_shared *sh, uint64_t now, uint64_t lost)
{
	lost += lb_pace_expire(p, now, LB_RCVTIMEO_MS * 1000000ull);
	if (!lost)
		return;
	p->timeouts += lost;
	atomic_store_explicit(&sh->timeouts, p->timeouts, memory_order_relaxed);
}

/* Returns > 0 when @fd is readable, 0 on time or interrupted, -1 (error slot filled). */
int lb_pace_wait(struct lb_flow *w, const struct lb_pace *p, int fd, uint64_t now, bool can_send)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	uint64_t ns = LB_PACE_WAIT_MAX_NS;
	struct timespec ts;
	int r;

	if (can_send)
		ns = p->next > now ? p->next - now : 0;
	if (ns > LB_PACE_WAIT_MAX_NS)
		ns = LB_PACE_WAIT_MAX_NS;
	ts.tv_sec = (time_t)(ns / 1000000000u);
	ts.tv_nsec = (long)(ns % 1000000000u);
	r = ppoll(&pfd, 1, &ts, NULL);
	if (r >= 0 || errno == EINTR)
		return r < 0 ? 0 : r;
	return lb_child_fail(w, LB_CLIENT, errno, "ppoll on the generator socket", lb_fix_socket);
}
