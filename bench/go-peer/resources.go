// The Go peer's two resources over one schema: gopeer_noop answers as siteops_noop does (no API call; ids and
// times made up, private state {"updated_at"}), gopeer_site as siteops_site does against the emulator (POST with
// an Idempotency-Key, GET, PATCH, DELETE; the answer's fields into state, updated_at and deletion_protection into
// private state). No retries and no upgrade pipeline: the bench's configurations need neither.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/zclconf/go-cty/cty"

	"siteopsgopeer/tfplugin6"
)

type result struct {
	state   cty.Value
	private []byte
	diags   []*tfplugin6.Diagnostic
}

type resource interface {
	create(ctx context.Context, plan cty.Value) result
	read(ctx context.Context, state cty.Value, private []byte) result
	update(ctx context.Context, plan, prior cty.Value, private []byte) result
	delete(ctx context.Context, prior cty.Value) result
}

func (p *provider) resource(typeName string) resource {
	if typeName == siteType {
		return site{p.api}
	}
	return noop{}
}

func with(state cty.Value, set map[string]cty.Value) cty.Value {
	attrs := state.AsValueMap()
	for k, v := range set {
		attrs[k] = v
	}
	return cty.ObjectVal(attrs)
}

func orDefault(v cty.Value, d string) cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return cty.StringVal(d)
	}
	return v
}

func jsonPrivate(fields map[string]interface{}) []byte {
	b, _ := json.Marshal(fields)
	return b
}

// isoNow is JavaScript's Date.prototype.toISOString of now.
func isoNow() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

var created int64

// processStart tells this process's keys from those of an earlier one with the same pid.
var processStart = time.Now().UnixNano()

type noop struct{}

func (noop) create(_ context.Context, plan cty.Value) result {
	now := isoNow()
	return result{
		state: with(plan, map[string]cty.Value{
			"id":          cty.StringVal(fmt.Sprintf("noop_%d_%d", os.Getpid(), atomic.AddInt64(&created, 1))),
			"wp_version":  orDefault(plan.GetAttr("wp_version"), "6.4"),
			"php_version": orDefault(plan.GetAttr("php_version"), "8.2"),
			"status":      cty.StringVal("unknown"),
			"created_at":  cty.StringVal(now),
		}),
		private: jsonPrivate(map[string]interface{}{"updated_at": now}),
	}
}

func (noop) read(_ context.Context, state cty.Value, private []byte) result {
	return result{state: state, private: private}
}

func (noop) update(_ context.Context, plan, prior cty.Value, _ []byte) result {
	return result{state: with(plan, map[string]cty.Value{"status": prior.GetAttr("status")})}
}

func (noop) delete(_ context.Context, prior cty.Value) result {
	return result{state: cty.NullVal(prior.Type())}
}

// api is the emulator's REST API, as the core calls it (Authorization: token ..., flat JSON bodies).
type api struct {
	base  string
	token string
	http  *http.Client
}

func newAPI(base, token string) *api {
	// go-cleanhttp's pooled transport, as HashiCorp's providers use: idle connections kept per host.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 16
	return &api{base: strings.TrimRight(base, "/"), token: token, http: &http.Client{Transport: transport, Timeout: 60 * time.Second}}
}

type siteAnswer struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	URL        string `json:"url"`
	WpVersion  string `json:"wp_version"`
	PhpVersion string `json:"php_version"`
	Status     string `json:"status"`
	CreatedAt  string `json:"created_at"`
	UpdatedAt  string `json:"updated_at"`
}

func (a *api) call(ctx context.Context, method, path string, body interface{}, key string, into interface{}) (int, error) {
	var reader *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		reader = bytes.NewReader(b)
	} else {
		reader = bytes.NewReader(nil)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, reader)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "token "+a.token)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "siteops-go-peer")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	res, err := a.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		var e struct {
			Error string `json:"error"`
		}
		_ = json.NewDecoder(res.Body).Decode(&e)
		return res.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, e.Error)
	}
	if into != nil {
		return res.StatusCode, json.NewDecoder(res.Body).Decode(into)
	}
	return res.StatusCode, nil
}

type site struct{ api *api }

func apiError(action string, err error) result {
	return result{diags: []*tfplugin6.Diagnostic{errorDiag("Could not "+action, err.Error(), "")}}
}

// sameURL: the service may spell the URL otherwise (host case, a trailing slash); the state keeps the plan's.
func sameURL(a, b string) bool {
	return strings.EqualFold(strings.TrimRight(a, "/"), strings.TrimRight(b, "/"))
}

// state is the resource's state from an answer: `kept` holds the configuration-only attributes and the spelling.
func (site) state(s *siteAnswer, kept cty.Value) (cty.Value, []byte) {
	url := cty.StringVal(s.URL)
	if was := kept.GetAttr("url"); was.IsKnown() && !was.IsNull() && sameURL(was.AsString(), s.URL) {
		url = was
	}
	protect := protected(kept)
	state := with(kept, map[string]cty.Value{
		"id":                  cty.StringVal(s.ID),
		"name":                cty.StringVal(s.Name),
		"url":                 url,
		"wp_version":          cty.StringVal(s.WpVersion),
		"php_version":         cty.StringVal(s.PhpVersion),
		"status":              cty.StringVal(s.Status),
		"created_at":          cty.StringVal(s.CreatedAt),
		"deletion_protection": cty.BoolVal(protect),
	})
	return state, jsonPrivate(map[string]interface{}{"updated_at": s.UpdatedAt, "deletion_protection": protect})
}

func body(plan cty.Value, names ...string) map[string]string {
	out := map[string]string{}
	for _, name := range names {
		if v := plan.GetAttr(name); v.IsKnown() && !v.IsNull() {
			out[name] = v.AsString()
		}
	}
	return out
}

func (r site) create(ctx context.Context, plan cty.Value) result {
	b := body(plan, "name", "url", "wp_version", "php_version")
	text, _ := json.Marshal(b)
	// The process's start in the key: each apply's creates create, as siteops_site's do once the keys a destroy
	// spent are skipped (provider/resources/spent-keys.ts). With the directory alone, every round after the first
	// was answered with replays of the sites the last destroy deleted (issue 51).
	wd, _ := os.Getwd()
	sum := sha256.Sum256(append(append([]byte(siteType+"\x00"), text...), fmt.Sprintf("%s\x00%d\x00%d", wd, os.Getpid(), processStart)...))
	var s siteAnswer
	if _, err := r.api.call(ctx, http.MethodPost, "/api/v1/sites", b, "gopeer-"+hex.EncodeToString(sum[:16]), &s); err != nil {
		return apiError("create the site", err)
	}
	state, private := r.state(&s, plan)
	return result{state: state, private: private}
}

func (r site) read(ctx context.Context, state cty.Value, _ []byte) result {
	var s siteAnswer
	status, err := r.api.call(ctx, http.MethodGet, "/api/v1/sites/"+state.GetAttr("id").AsString(), nil, "", &s)
	if status == http.StatusNotFound {
		return result{state: cty.NullVal(state.Type())}
	}
	if err != nil {
		return apiError("read the site", err)
	}
	next, private := r.state(&s, state)
	return result{state: next, private: private}
}

func (r site) update(ctx context.Context, plan, prior cty.Value, _ []byte) result {
	b := map[string]string{}
	for name, v := range body(plan, "name", "url", "wp_version", "php_version") {
		if was := prior.GetAttr(name); was.IsNull() || was.AsString() != v {
			b[name] = v
		}
	}
	if len(b) == 0 {
		protect := protected(plan)
		return result{state: with(plan, map[string]cty.Value{"status": prior.GetAttr("status")}), private: jsonPrivate(map[string]interface{}{"deletion_protection": protect})}
	}
	var s siteAnswer
	if _, err := r.api.call(ctx, http.MethodPatch, "/api/v1/sites/"+prior.GetAttr("id").AsString(), b, "", &s); err != nil {
		return apiError("update the site", err)
	}
	state, private := r.state(&s, plan)
	return result{state: state, private: private}
}

func (r site) delete(ctx context.Context, prior cty.Value) result {
	status, err := r.api.call(ctx, http.MethodDelete, "/api/v1/sites/"+prior.GetAttr("id").AsString(), nil, "", nil)
	if err != nil && status != http.StatusNotFound {
		return apiError("delete the site", err)
	}
	return result{state: cty.NullVal(prior.Type())}
}
