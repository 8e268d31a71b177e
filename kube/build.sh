#!/usr/bin/env bash
# Builds the real Kubernetes test binaries (kube-apiserver, kube-controller-manager, kubectl, etcd)
# from the versions pinned in this module's go.mod/go.sum, through the Go module proxy only, into
# kube/bin (gitignored). A stamp of go.mod+go.sum+this script is kept beside them: while it matches,
# the binaries are reused and nothing is built.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${VIRTUAL_EXPORTERS_KUBE_BIN:-$here/bin}"
cd "$here"
if ! command -v go >/dev/null; then
  echo "kube:binaries: Go is not installed (needs Go >= 1.26 with the Go module proxy)" >&2
  exit 1
fi
stamp="$( (cat go.mod go.sum build.sh; go env GOVERSION) | sha256sum | cut -c1-16)"
names=(kube-apiserver kube-controller-manager kubectl etcd)
all_there=1
for n in "${names[@]}"; do [ -x "$bin/$n" ] || all_there=0; done
if [ "$all_there" = 1 ] && [ "$(cat "$bin/.stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "kube:binaries: reusing $bin (pins unchanged: $stamp)"
  exit 0
fi
mkdir -p "$bin"
rm -f "$bin/.stamp"
k8s="$(go list -m -f '{{.Version}}' k8s.io/kubernetes)"
etcd="$(go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3)"
major="$(echo "${k8s#v}" | cut -d. -f1)"
minor="$(echo "${k8s#v}" | cut -d. -f2)"
v=k8s.io/component-base/version
ldflags="-s -w -X $v.gitVersion=$k8s -X $v.gitMajor=$major -X $v.gitMinor=$minor -X $v.gitTreeState=clean"
ldflags="$ldflags -X k8s.io/client-go/pkg/version.gitVersion=$k8s -X k8s.io/client-go/pkg/version.gitMajor=$major -X k8s.io/client-go/pkg/version.gitMinor=$minor"
export CGO_ENABLED=0 GOFLAGS=-mod=readonly
build() { # name, package, ldflags
  local t0=$SECONDS
  go build -trimpath -ldflags "$3" -o "$bin/$1" "$2"
  echo "kube:binaries: built $1 ($2) in $((SECONDS - t0)) s"
}
start=$SECONDS
echo "kube:binaries: building Kubernetes $k8s and etcd $etcd into $bin (the first build takes long on 2 cores; later runs reuse it)"
build etcd go.etcd.io/etcd/server/v3 "-s -w"
build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver "$ldflags"
build kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager "$ldflags"
build kubectl k8s.io/kubernetes/cmd/kubectl "$ldflags"
printf '{"kubernetes":"%s","etcd":"%s"}\n' "$k8s" "$etcd" > "$bin/versions.json"
echo "$stamp" > "$bin/.stamp"
echo "kube:binaries: done in $((SECONDS - start)) s: kubernetes $k8s, etcd $etcd"
