// The Go peer's schemas: siteops' own, as `terraform providers schema -json` prints them (peer.json, written by
// bench/lib/go-peer.ts from provider/schema-json.ts, with the defaults and useStateForUnknown attributes that
// site-schema.ts adds), turned into tfplugin6 schemas and the cty types their values are decoded with.
package main

import (
	_ "embed"
	"encoding/json"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"siteopsgopeer/tfplugin6"
)

//go:embed peer.json
var peerJSON []byte

type jsonAttribute struct {
	Type        json.RawMessage `json:"type"`
	Description string          `json:"description"`
	Required    bool            `json:"required"`
	Optional    bool            `json:"optional"`
	Computed    bool            `json:"computed"`
	Sensitive   bool            `json:"sensitive"`
	Deprecated  bool            `json:"deprecated"`
}

type jsonBlockType struct {
	NestingMode string    `json:"nesting_mode"`
	Block       jsonBlock `json:"block"`
	MinItems    int64     `json:"min_items"`
	MaxItems    int64     `json:"max_items"`
}

type jsonBlock struct {
	Attributes  map[string]jsonAttribute `json:"attributes"`
	BlockTypes  map[string]jsonBlockType `json:"block_types"`
	Description string                   `json:"description"`
}

type jsonSchema struct {
	Version int64     `json:"version"`
	Block   jsonBlock `json:"block"`
}

// peerSchema is peer.json: the provider's schema, siteops_site's, and what site-schema.ts adds to its planning.
type peerSchema struct {
	Provider        jsonSchema                 `json:"provider"`
	Site            jsonSchema                 `json:"site"`
	Defaults        map[string]json.RawMessage `json:"defaults"`
	StateForUnknown []string                   `json:"state_for_unknown"`
}

var nesting = map[string]tfplugin6.Schema_NestedBlock_NestingMode{
	"single": tfplugin6.Schema_NestedBlock_SINGLE,
	"list":   tfplugin6.Schema_NestedBlock_LIST,
	"set":    tfplugin6.Schema_NestedBlock_SET,
	"map":    tfplugin6.Schema_NestedBlock_MAP,
	"group":  tfplugin6.Schema_NestedBlock_GROUP,
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func protoBlock(b jsonBlock) *tfplugin6.Schema_Block {
	out := &tfplugin6.Schema_Block{Description: b.Description, DescriptionKind: tfplugin6.StringKind_MARKDOWN}
	for _, name := range sortedKeys(b.Attributes) {
		a := b.Attributes[name]
		out.Attributes = append(out.Attributes, &tfplugin6.Schema_Attribute{
			Name: name, Type: a.Type, Description: a.Description, DescriptionKind: tfplugin6.StringKind_MARKDOWN,
			Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, Deprecated: a.Deprecated,
		})
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		bt := b.BlockTypes[name]
		out.BlockTypes = append(out.BlockTypes, &tfplugin6.Schema_NestedBlock{
			TypeName: name, Block: protoBlock(bt.Block), Nesting: nesting[bt.NestingMode], MinItems: bt.MinItems, MaxItems: bt.MaxItems,
		})
	}
	return out
}

func protoSchema(s jsonSchema) *tfplugin6.Schema {
	return &tfplugin6.Schema{Version: s.Version, Block: protoBlock(s.Block)}
}

// impliedType is the cty type of a block's values, as Terraform's configschema derives it.
func impliedType(b jsonBlock) cty.Type {
	attrs := map[string]cty.Type{}
	for name, a := range b.Attributes {
		t, err := ctyjson.UnmarshalType(a.Type)
		if err != nil {
			panic(err)
		}
		attrs[name] = t
	}
	for name, bt := range b.BlockTypes {
		t := impliedType(bt.Block)
		switch bt.NestingMode {
		case "list":
			t = cty.List(t)
		case "set":
			t = cty.Set(t)
		case "map":
			t = cty.Map(t)
		}
		attrs[name] = t
	}
	return cty.Object(attrs)
}

func loadPeerSchema() *peerSchema {
	var p peerSchema
	if err := json.Unmarshal(peerJSON, &p); err != nil {
		panic(err)
	}
	return &p
}
