// GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate` (scripts/generate-cdk.mjs):
// @cdktn/provider-generator 0.24.0 over the siteops provider's schema (provider/schema-json.ts).
// https://registry.terraform.io/providers/siteops/siteops/latest/docs/data-sources/sites
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface DataSiteopsSitesConfig extends cdktn.TerraformMetaArguments {
  /**
  * Only sites with this health status.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/data-sources/sites#status DataSiteopsSites#status}
  */
  readonly status?: string;
}
export interface DataSiteopsSitesSites {
}

export function dataSiteopsSitesSitesToTerraform(struct?: DataSiteopsSitesSites): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  return {
  }
}


export function dataSiteopsSitesSitesToHclTerraform(struct?: DataSiteopsSitesSites): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  const attrs = {
  };
  return attrs;
}

export class DataSiteopsSitesSitesOutputReference extends cdktn.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktn.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): DataSiteopsSitesSites | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataSiteopsSitesSites | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // created_at - computed: true, optional: false, required: false
  public get createdAt() {
    return this.getStringAttribute('created_at');
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // php_version - computed: true, optional: false, required: false
  public get phpVersion() {
    return this.getStringAttribute('php_version');
  }

  // status - computed: true, optional: false, required: false
  public get status() {
    return this.getStringAttribute('status');
  }

  // url - computed: true, optional: false, required: false
  public get url() {
    return this.getStringAttribute('url');
  }

  // wp_version - computed: true, optional: false, required: false
  public get wpVersion() {
    return this.getStringAttribute('wp_version');
  }
}

export class DataSiteopsSitesSitesList extends cdktn.ComplexList {

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param wrapsSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  constructor(terraformResource: cdktn.IInterpolatingParent, terraformAttribute: string, wrapsSet: boolean) {
    super(terraformResource, terraformAttribute, wrapsSet);
  }

  /**
  * @param index the index of the item to return
  */
  public get(index: number): DataSiteopsSitesSitesOutputReference {
    return new DataSiteopsSitesSitesOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/data-sources/sites siteops_sites}
*/
export class DataSiteopsSites extends cdktn.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "siteops_sites";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a DataSiteopsSites resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataSiteopsSites to import
  * @param importFromId The id of the existing DataSiteopsSites that should be imported. Refer to the {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/data-sources/sites#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataSiteopsSites to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "siteops_sites", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/data-sources/sites siteops_sites} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataSiteopsSitesConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataSiteopsSitesConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'siteops_sites',
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
    this._status = config.status;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // sites - computed: true, optional: false, required: false
  private _sites = new DataSiteopsSitesSitesList(this, "sites", false);
  public get sites() {
    return this._sites;
  }

  // status - computed: false, optional: true, required: false
  private _status?: string; 
  public get status() {
    return this.getStringAttribute('status');
  }
  public set status(value: string) {
    this._status = value;
  }
  public resetStatus() {
    this._status = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get statusInput() {
    return this._status;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      status: cdktn.stringToTerraform(this._status),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      status: {
        value: cdktn.stringToHclTerraform(this._status),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
