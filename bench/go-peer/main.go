// The Go peer of the provider benchmark (never shipped; built by bench/lib/go-peer.ts for
// bench/provider-terraform.bench.ts): a Terraform provider written the way Go providers are, on HashiCorp's
// go-plugin and gRPC as Debian packages them, with siteops_site's schema. gopeer_noop does siteops_noop's nothing
// (bench/lib/provider-noop.ts); gopeer_site creates, reads and deletes sites in the emulator as siteops_site does.
// This file: go-plugin's serve loop, and the per-process figures the bench reads (SITEOPS_BENCH_STATS).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"

	plugin "github.com/hashicorp/go-plugin"
	"golang.org/x/sys/unix"
	"google.golang.org/grpc"

	"siteopsgopeer/tfplugin6"
)

// monotonicMs is CLOCK_MONOTONIC in ms: the clock of the bench's and the Node provider's timestamps.
func monotonicMs() float64 {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return float64(ts.Sec)*1e3 + float64(ts.Nsec)/1e6
}

// cpuMs is this process's user+system CPU time (all threads), ms.
func cpuMs() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec+ru.Stime.Sec)*1e3 + float64(ru.Utime.Usec+ru.Stime.Usec)/1e3
}

var startMs = monotonicMs()

type rpcStats struct {
	Calls  int     `json:"calls"`
	WallMs float64 `json:"wallMs"`
}

// stats is the line bench/lib/provider-noop.ts writes for a Node provider process (ProviderProcess in
// bench/lib/provider-helpers.ts), for this one.
type stats struct {
	file       string
	mu         sync.Mutex
	readyCpuMs float64
	readyMs    float64
	rpcs       map[string]*rpcStats
}

func (s *stats) ready() {
	if s != nil {
		s.readyCpuMs, s.readyMs = cpuMs(), monotonicMs()
	}
}

// intercept times each RPC from request decoded to reply built, as the Node provider's instrument() does.
func (s *stats) intercept(ctx context.Context, req interface{}, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (interface{}, error) {
	started := monotonicMs()
	reply, err := handler(ctx, req)
	method := info.FullMethod[strings.LastIndex(info.FullMethod, "/")+1:]
	name := strings.ToLower(method[:1]) + method[1:]
	s.mu.Lock()
	r := s.rpcs[name]
	if r == nil {
		r = &rpcStats{}
		s.rpcs[name] = r
	}
	r.Calls++
	r.WallMs += monotonicMs() - started
	s.mu.Unlock()
	return reply, err
}

func (s *stats) write() {
	if s == nil {
		return
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	now := monotonicMs()
	line, _ := json.Marshal(map[string]interface{}{
		"pid":        os.Getpid(),
		"cpuMs":      cpuMs(),
		"readyCpuMs": s.readyCpuMs,
		"wallMs":     now - startMs,
		"startMs":    startMs,
		"readyMs":    s.readyMs,
		"exitMs":     now,
		"maxRssKb":   ru.Maxrss,
		"rpcs":       s.rpcs,
	})
	f, err := os.OpenFile(s.file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		_, _ = f.Write(append(line, '\n'))
		_ = f.Close()
	}
}

type providerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	stats *stats
}

func (p *providerPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	tfplugin6.RegisterProviderServer(s, newProvider())
	p.stats.ready()
	return nil
}

func (p *providerPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (interface{}, error) {
	return nil, errors.New("the Go peer is a plugin server only")
}

func main() {
	var st *stats
	if file := os.Getenv("SITEOPS_BENCH_STATS"); file != "" {
		st = &stats{file: file, rpcs: map[string]*rpcStats{}}
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: plugin.HandshakeConfig{
			MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		},
		VersionedPlugins: map[int]plugin.PluginSet{6: {"provider": &providerPlugin{stats: st}}},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			if st != nil {
				opts = append(opts, grpc.UnaryInterceptor(st.intercept))
			}
			return grpc.NewServer(opts...)
		},
	})
	// Serve returns once GRPCController.Shutdown has stopped the server.
	st.write()
}
