/**
 * The size and depth limits of a real API server (and its etcd), which the test cluster enforces so
 * that what works here also works there:
 *
 * - request bodies over 3 MiB: 413 `Request entity too large: limit is 3145728` (kube-apiserver's
 *   `MaxRequestBodyBytes`, twice etcd's request limit to allow for JSON being larger than protobuf);
 * - a stored object over 1.5 MiB of JSON: etcd's default `--max-request-bytes`; kube-apiserver passes
 *   etcd's `etcdserver: request is too large` on as a 500 (kubernetes/kubernetes#112152 asks for a
 *   better code), and so does the test cluster;
 * - JSON nested more than 10,000 levels: Go's JSON decoder stops there (`exceeded max depth`), a 400;
 * - a Secret's data over 1 MiB in all: 422 from Secret validation.
 */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;
export const MAX_OBJECT_BYTES = 1.5 * 1024 * 1024;
export const MAX_JSON_DEPTH = 10_000;
export const MAX_SECRET_BYTES = 1024 * 1024;
