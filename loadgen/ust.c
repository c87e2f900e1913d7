// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The server side of the LTTng-UST markers (ust.h): the two pointers the
 * markers test, and the loading of the provider that sets them.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "ust.h"

lb_ust_fn lb_ust_request_fn;
lb_ust_fn lb_ust_reply_fn;

int lb_ust_load(const char *path, char *err, size_t len)
{
#ifdef HAVE_LTTNG_UST
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	lb_ust_fn rq, rp;

	if (!h) {
		snprintf(err, len, "%s", dlerror());
		return -ENOENT;
	}
	*(void **)&rq = dlsym(h, "lb_ust_request");
	*(void **)&rp = dlsym(h, "lb_ust_reply");
	if (!rq || !rp) {
		snprintf(err, len, "%s has no lb_ust_request or lb_ust_reply", path);
		dlclose(h);
		return -ENOENT;
	}
	lb_ust_request_fn = rq;
	lb_ust_reply_fn = rp;
	return 0;
#else
	(void)path;
	snprintf(err, len, "built without liblttng-ust (apt-get install liblttng-ust-dev)");
	return -ENOSYS;
#endif
}
