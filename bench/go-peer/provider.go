// The Go peer's tfplugin6 Provider service: what terraform-plugin-go leaves a Go provider to do, written plainly
// over go-cty (values decoded with the schema's type from msgpack, encoded back to it), with the framework's
// planning rules for this one schema (provider/framework/planning.ts): defaults, computed attributes unknown when
// the object changes, the prior value for useStateForUnknown attributes, and deletion_protection's refusals.
package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"sync"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"siteopsgopeer/tfplugin6"
)

const (
	noopType = "gopeer_noop"
	siteType = "gopeer_site"
)

type provider struct {
	tfplugin6.UnimplementedProviderServer
	peer         *peerSchema
	providerType cty.Type
	siteType     cty.Type
	defaults     map[string]cty.Value
	schemaOnce   sync.Once
	schema       *tfplugin6.GetProviderSchema_Response
	api          *api
}

func newProvider() *provider {
	peer := loadPeerSchema()
	p := &provider{peer: peer, providerType: impliedType(peer.Provider.Block), siteType: impliedType(peer.Site.Block), defaults: map[string]cty.Value{}}
	for name, raw := range peer.Defaults {
		v, err := ctyjson.Unmarshal(raw, p.siteType.AttributeType(name))
		if err != nil {
			panic(err)
		}
		p.defaults[name] = v
	}
	return p
}

var capabilities = &tfplugin6.ServerCapabilities{PlanDestroy: true, GetProviderSchemaOptional: true}

func decode(dv *tfplugin6.DynamicValue, ty cty.Type) (cty.Value, error) {
	switch {
	case dv == nil:
		return cty.NullVal(ty), nil
	case len(dv.Msgpack) > 0:
		return ctymsgpack.Unmarshal(dv.Msgpack, ty)
	case len(dv.Json) > 0:
		return ctyjson.Unmarshal(dv.Json, ty)
	}
	return cty.NullVal(ty), nil
}

func encode(v cty.Value, ty cty.Type) *tfplugin6.DynamicValue {
	b, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		panic(err)
	}
	return &tfplugin6.DynamicValue{Msgpack: b}
}

func errorDiag(summary, detail, attribute string) *tfplugin6.Diagnostic {
	d := &tfplugin6.Diagnostic{Severity: tfplugin6.Diagnostic_ERROR, Summary: summary, Detail: detail}
	if attribute != "" {
		d.Attribute = &tfplugin6.AttributePath{Steps: []*tfplugin6.AttributePath_Step{{Selector: &tfplugin6.AttributePath_Step_AttributeName{AttributeName: attribute}}}}
	}
	return d
}

func valueError(err error) []*tfplugin6.Diagnostic {
	return []*tfplugin6.Diagnostic{errorDiag("Invalid value", err.Error(), "")}
}

func (p *provider) GetMetadata(context.Context, *tfplugin6.GetMetadata_Request) (*tfplugin6.GetMetadata_Response, error) {
	return &tfplugin6.GetMetadata_Response{
		ServerCapabilities: capabilities,
		Resources:          []*tfplugin6.GetMetadata_ResourceMetadata{{TypeName: noopType}, {TypeName: siteType}},
	}, nil
}

func (p *provider) GetProviderSchema(context.Context, *tfplugin6.GetProviderSchema_Request) (*tfplugin6.GetProviderSchema_Response, error) {
	p.schemaOnce.Do(func() {
		site := protoSchema(p.peer.Site)
		p.schema = &tfplugin6.GetProviderSchema_Response{
			Provider:           protoSchema(p.peer.Provider),
			ResourceSchemas:    map[string]*tfplugin6.Schema{noopType: site, siteType: site},
			ServerCapabilities: capabilities,
		}
	})
	return p.schema, nil
}

func (p *provider) ValidateProviderConfig(_ context.Context, req *tfplugin6.ValidateProviderConfig_Request) (*tfplugin6.ValidateProviderConfig_Response, error) {
	if _, err := decode(req.Config, p.providerType); err != nil {
		return &tfplugin6.ValidateProviderConfig_Response{Diagnostics: valueError(err)}, nil
	}
	return &tfplugin6.ValidateProviderConfig_Response{}, nil
}

func (p *provider) ConfigureProvider(_ context.Context, req *tfplugin6.ConfigureProvider_Request) (*tfplugin6.ConfigureProvider_Response, error) {
	config, err := decode(req.Config, p.providerType)
	if err != nil {
		return &tfplugin6.ConfigureProvider_Response{Diagnostics: valueError(err)}, nil
	}
	setting := func(name, env string) string {
		if v := config.GetAttr(name); v.IsKnown() && !v.IsNull() {
			return v.AsString()
		}
		return os.Getenv(env)
	}
	p.api = newAPI(setting("base_url", "SITEOPS_BASE_URL"), setting("api_token", "SITEOPS_API_TOKEN"))
	return &tfplugin6.ConfigureProvider_Response{}, nil
}

var majorMinor = regexp.MustCompile(`^\d+\.\d+$`)

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != ""
}

// The validators of site-schema.ts: name 1-255 characters, url an absolute http(s) URL, versions major.minor.
func (p *provider) ValidateResourceConfig(_ context.Context, req *tfplugin6.ValidateResourceConfig_Request) (*tfplugin6.ValidateResourceConfig_Response, error) {
	config, err := decode(req.Config, p.siteType)
	if err != nil {
		return &tfplugin6.ValidateResourceConfig_Response{Diagnostics: valueError(err)}, nil
	}
	var diags []*tfplugin6.Diagnostic
	known := func(name string) (string, bool) {
		v := config.GetAttr(name)
		if !v.IsKnown() || v.IsNull() {
			return "", false
		}
		return v.AsString(), true
	}
	if name, ok := known("name"); ok && (utf8.RuneCountInString(name) < 1 || utf8.RuneCountInString(name) > 255) {
		diags = append(diags, errorDiag("Invalid Attribute Value", fmt.Sprintf("Attribute must be a string of length between 1 and 255, got: %q.", name), "name"))
	}
	if u, ok := known("url"); ok && !isHTTPURL(u) {
		diags = append(diags, errorDiag("Invalid Attribute Value", fmt.Sprintf("Attribute must be an absolute http or https URL, got: %q.", u), "url"))
	}
	for _, name := range []string{"wp_version", "php_version"} {
		if v, ok := known(name); ok && !majorMinor.MatchString(v) {
			diags = append(diags, errorDiag("Invalid Attribute Value", fmt.Sprintf("Attribute must be a major.minor version such as \"6.4\", got: %q.", v), name))
		}
	}
	return &tfplugin6.ValidateResourceConfig_Response{Diagnostics: diags}, nil
}

func protected(state cty.Value) bool {
	v := state.GetAttr("deletion_protection")
	return v.IsNull() || !v.IsKnown() || v.True()
}

var protectedDiag = errorDiag("Deletion protection is on", "set deletion_protection = false in its siteops_site block and run terraform apply first", "deletion_protection")

func (p *provider) PlanResourceChange(_ context.Context, req *tfplugin6.PlanResourceChange_Request) (*tfplugin6.PlanResourceChange_Response, error) {
	ty := p.siteType
	prior, err1 := decode(req.PriorState, ty)
	proposed, err2 := decode(req.ProposedNewState, ty)
	config, err3 := decode(req.Config, ty)
	for _, err := range []error{err1, err2, err3} {
		if err != nil {
			return &tfplugin6.PlanResourceChange_Response{Diagnostics: valueError(err)}, nil
		}
	}
	if proposed.IsNull() {
		if !prior.IsNull() && protected(prior) {
			return &tfplugin6.PlanResourceChange_Response{Diagnostics: []*tfplugin6.Diagnostic{protectedDiag}}, nil
		}
		return &tfplugin6.PlanResourceChange_Response{PlannedState: encode(cty.NullVal(ty), ty), PlannedPrivate: req.PriorPrivate}, nil
	}
	attrs := proposed.AsValueMap()
	cfg := config.AsValueMap()
	for name, d := range p.defaults {
		if cfg[name].IsNull() {
			attrs[name] = d
		}
	}
	if prior.IsNull() || !cty.ObjectVal(attrs).RawEquals(prior) {
		for name, a := range p.peer.Site.Block.Attributes {
			if _, hasDefault := p.defaults[name]; a.Computed && !hasDefault && cfg[name].IsNull() {
				attrs[name] = cty.UnknownVal(ty.AttributeType(name))
			}
		}
	}
	if !prior.IsNull() {
		was := prior.AsValueMap()
		for _, name := range p.peer.StateForUnknown {
			if !attrs[name].IsKnown() && cfg[name].IsKnown() && !was[name].IsNull() {
				attrs[name] = was[name]
			}
		}
		// Only deletion_protection or the upgrade block changed: nothing reaches the API, the status stays.
		same := true
		for _, name := range []string{"name", "url", "wp_version", "php_version"} {
			same = same && attrs[name].RawEquals(was[name])
		}
		if same {
			attrs["status"] = was["status"]
		}
	}
	return &tfplugin6.PlanResourceChange_Response{PlannedState: encode(cty.ObjectVal(attrs), ty), PlannedPrivate: req.PriorPrivate}, nil
}

func (p *provider) ApplyResourceChange(ctx context.Context, req *tfplugin6.ApplyResourceChange_Request) (*tfplugin6.ApplyResourceChange_Response, error) {
	ty := p.siteType
	prior, err1 := decode(req.PriorState, ty)
	planned, err2 := decode(req.PlannedState, ty)
	for _, err := range []error{err1, err2} {
		if err != nil {
			return &tfplugin6.ApplyResourceChange_Response{Diagnostics: valueError(err)}, nil
		}
	}
	r := p.resource(req.TypeName)
	var out result
	switch {
	case planned.IsNull() && protected(prior):
		return &tfplugin6.ApplyResourceChange_Response{NewState: req.PriorState, Diagnostics: []*tfplugin6.Diagnostic{protectedDiag}}, nil
	case planned.IsNull():
		out = r.delete(ctx, prior)
	case prior.IsNull():
		out = r.create(ctx, planned)
	default:
		out = r.update(ctx, planned, prior, req.PlannedPrivate)
	}
	if out.diags != nil {
		return &tfplugin6.ApplyResourceChange_Response{NewState: req.PriorState, Diagnostics: out.diags}, nil
	}
	return &tfplugin6.ApplyResourceChange_Response{NewState: encode(out.state, ty), Private: out.private}, nil
}

func (p *provider) ReadResource(ctx context.Context, req *tfplugin6.ReadResource_Request) (*tfplugin6.ReadResource_Response, error) {
	ty := p.siteType
	current, err := decode(req.CurrentState, ty)
	if err != nil {
		return &tfplugin6.ReadResource_Response{Diagnostics: valueError(err)}, nil
	}
	if current.IsNull() {
		return &tfplugin6.ReadResource_Response{NewState: encode(current, ty), Private: req.Private}, nil
	}
	out := p.resource(req.TypeName).read(ctx, current, req.Private)
	if out.diags != nil {
		return &tfplugin6.ReadResource_Response{NewState: req.CurrentState, Private: req.Private, Diagnostics: out.diags}, nil
	}
	return &tfplugin6.ReadResource_Response{NewState: encode(out.state, ty), Private: out.private}, nil
}

// UpgradeResourceState: the stored JSON to msgpack; version 0 had no deletion_protection (read as protected).
func (p *provider) UpgradeResourceState(_ context.Context, req *tfplugin6.UpgradeResourceState_Request) (*tfplugin6.UpgradeResourceState_Response, error) {
	ty := p.siteType
	if req.RawState == nil || len(req.RawState.Json) == 0 {
		return &tfplugin6.UpgradeResourceState_Response{UpgradedState: encode(cty.NullVal(ty), ty)}, nil
	}
	state, err := ctyjson.Unmarshal(req.RawState.Json, ty)
	if err != nil {
		return &tfplugin6.UpgradeResourceState_Response{Diagnostics: valueError(err)}, nil
	}
	if req.Version == 0 && state.GetAttr("deletion_protection").IsNull() {
		attrs := state.AsValueMap()
		attrs["deletion_protection"] = cty.True
		state = cty.ObjectVal(attrs)
	}
	return &tfplugin6.UpgradeResourceState_Response{UpgradedState: encode(state, ty)}, nil
}

func (p *provider) ImportResourceState(_ context.Context, req *tfplugin6.ImportResourceState_Request) (*tfplugin6.ImportResourceState_Response, error) {
	attrs := map[string]cty.Value{}
	for name, t := range p.siteType.AttributeTypes() {
		attrs[name] = cty.NullVal(t)
	}
	attrs["id"] = cty.StringVal(req.Id)
	return &tfplugin6.ImportResourceState_Response{ImportedResources: []*tfplugin6.ImportResourceState_ImportedResource{
		{TypeName: req.TypeName, State: encode(cty.ObjectVal(attrs), p.siteType)},
	}}, nil
}

func (p *provider) StopProvider(context.Context, *tfplugin6.StopProvider_Request) (*tfplugin6.StopProvider_Response, error) {
	return &tfplugin6.StopProvider_Response{}, nil
}
