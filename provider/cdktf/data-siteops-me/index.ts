// GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate` (scripts/generate-cdk.mjs):
// @cdktf/provider-generator 0.21.0 over the siteops provider's schema (provider/schema-json.ts).
// https://registry.terraform.io/providers/siteops/siteops/latest/docs/data-sources/me
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface DataSiteopsMeConfig extends cdktf.TerraformMetaArguments {
}

/**
* Represents a {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/data-sources/me siteops_me}
*/
export class DataSiteopsMe extends cdktf.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "siteops_me";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DataSiteopsMe resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataSiteopsMe to import
  * @param importFromId The id of the existing DataSiteopsMe that should be imported. Refer to the {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/data-sources/me#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataSiteopsMe to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "siteops_me", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/data-sources/me siteops_me} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataSiteopsMeConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataSiteopsMeConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'siteops_me',
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
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // created_at - computed: true, optional: false, required: false
  public get createdAt() {
    return this.getStringAttribute('created_at');
  }

  // current_account_id - computed: true, optional: false, required: false
  public get currentAccountId() {
    return this.getStringAttribute('current_account_id');
  }

  // email - computed: true, optional: false, required: false
  public get email() {
    return this.getStringAttribute('email');
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // role - computed: true, optional: false, required: false
  public get role() {
    return this.getStringAttribute('role');
  }

  // two_factor_enabled - computed: true, optional: false, required: false
  public get twoFactorEnabled() {
    return this.getBooleanAttribute('two_factor_enabled');
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
    };
    return attrs;
  }
}
