// GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate` (scripts/generate-cdk.mjs):
// @cdktn/provider-generator 0.24.0 over the siteops provider's schema (provider/schema-json.ts).
// https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface SiteConfig extends cdktn.TerraformMetaArguments {
  /**
  * Display name, 1 to 255 characters.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#name Site#name}
  */
  readonly name: string;
  /**
  * PHP version, `major.minor`. Defaults to the service's current version.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#php_version Site#php_version}
  */
  readonly phpVersion?: string;
  /**
  * Absolute http or https URL of the site; unique within the account.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#url Site#url}
  */
  readonly url: string;
  /**
  * WordPress version, `major.minor`. Defaults to the service's current version.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#wp_version Site#wp_version}
  */
  readonly wpVersion?: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site siteops_site}
*/
export class Site extends cdktn.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "siteops_site";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a Site resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Site to import
  * @param importFromId The id of the existing Site that should be imported. Refer to the {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Site to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "siteops_site", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site siteops_site} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options SiteConfig
  */
  public constructor(scope: Construct, id: string, config: SiteConfig) {
    super(scope, id, {
      terraformResourceType: 'siteops_site',
      terraformGeneratorMetadata: {
        providerName: 'siteops'
      },
      provider: config.provider,
      dependsOn: config.dependsOn,
      count: config.count,
      lifecycle: config.lifecycle,
      provisioners: config.provisioners,
      connection: config.connection,
      forEach: config.forEach
    });
    this._name = config.name;
    this._phpVersion = config.phpVersion;
    this._url = config.url;
    this._wpVersion = config.wpVersion;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // created_at - computed: true, optional: false, required: false
  public get createdAt() {
    return this.getStringAttribute('created_at');
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // name - computed: false, optional: false, required: true
  private _name?: string; 
  public get name() {
    return this.getStringAttribute('name');
  }
  public set name(value: string) {
    this._name = value;
  }
  // Temporarily expose input value. Use with caution.
  public get nameInput() {
    return this._name;
  }

  // php_version - computed: true, optional: true, required: false
  private _phpVersion?: string; 
  public get phpVersion() {
    return this.getStringAttribute('php_version');
  }
  public set phpVersion(value: string) {
    this._phpVersion = value;
  }
  public resetPhpVersion() {
    this._phpVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get phpVersionInput() {
    return this._phpVersion;
  }

  // status - computed: true, optional: false, required: false
  public get status() {
    return this.getStringAttribute('status');
  }

  // url - computed: false, optional: false, required: true
  private _url?: string; 
  public get url() {
    return this.getStringAttribute('url');
  }
  public set url(value: string) {
    this._url = value;
  }
  // Temporarily expose input value. Use with caution.
  public get urlInput() {
    return this._url;
  }

  // wp_version - computed: true, optional: true, required: false
  private _wpVersion?: string; 
  public get wpVersion() {
    return this.getStringAttribute('wp_version');
  }
  public set wpVersion(value: string) {
    this._wpVersion = value;
  }
  public resetWpVersion() {
    this._wpVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get wpVersionInput() {
    return this._wpVersion;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      name: cdktn.stringToTerraform(this._name),
      php_version: cdktn.stringToTerraform(this._phpVersion),
      url: cdktn.stringToTerraform(this._url),
      wp_version: cdktn.stringToTerraform(this._wpVersion),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      name: {
        value: cdktn.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      php_version: {
        value: cdktn.stringToHclTerraform(this._phpVersion),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      url: {
        value: cdktn.stringToHclTerraform(this._url),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      wp_version: {
        value: cdktn.stringToHclTerraform(this._wpVersion),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
