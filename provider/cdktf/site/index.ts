// GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate` (scripts/generate-cdk.mjs):
// @cdktf/provider-generator 0.21.0 over the siteops provider's schema (provider/schema-json.ts).
// https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface SiteConfig extends cdktf.TerraformMetaArguments {
  /**
  * Whether Terraform is kept from deleting the site: while `true`, `terraform destroy`, a `removed` block with `destroy = true`, a resource taken out of the configuration and a replacement (`-replace`) all fail with an error until `deletion_protection = false` has been applied. Changing it calls no API (it lives in the state only); `terraform import` and `siteops export` set it to `true`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#deletion_protection Site#deletion_protection}
  */
  readonly deletionProtection?: boolean | cdktf.IResolvable;
  /**
  * Display name, 1 to 255 characters.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#name Site#name}
  */
  readonly name: string;
  /**
  * PHP version, `major.minor`. Defaults to the service's current version. `6.5` and `6.5.0` are one version.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#php_version Site#php_version}
  */
  readonly phpVersion?: string;
  /**
  * Absolute http or https URL of the site; unique within the account. Compared by meaning: where the service stores it spelled otherwise (host case, a trailing `/`, a default port), the state keeps the configured spelling.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#url Site#url}
  */
  readonly url: string;
  /**
  * WordPress version, `major.minor`. Defaults to the service's current version. `6.5` and `6.5.0` are one version.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#wp_version Site#wp_version}
  */
  readonly wpVersion?: string;
  /**
  * upgrade block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#upgrade Site#upgrade}
  */
  readonly upgrade?: SiteUpgrade;
}
export interface SiteUpgrade {
  /**
  * The pipeline stops before applying until someone approves it (in the console, with `siteops upgrade approve --site <site id>` as the plan's warning says, or the GitHub Action); apply waits for that, up to `timeout`. Default `false`: the plan that `terraform apply` shows and asks to confirm (with its warning that a pipeline will run) is the approval; `true` adds a second one in the service.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#require_approval Site#require_approval}
  */
  readonly requireApproval?: boolean | cdktf.IResolvable;
  /**
  * `"pipeline"` (default): apply opens an upgrade pipeline (pre-upgrade snapshot, preflight, apply, verify, rollback on failure) and waits for it; a downgrade is refused at plan time. `"direct"`: the versions are changed in place without any of that (a downgrade is allowed).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#strategy Site#strategy}
  */
  readonly strategy?: string;
  /**
  * How long apply waits for the pipeline to end (approval included), e.g. `"30m"`, `"1h30m"`, `"90s"`. Default `"30m"`. A pipeline still running then is left running; the next apply follows it.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#timeout Site#timeout}
  */
  readonly timeout?: string;
}

export function siteUpgradeToTerraform(struct?: SiteUpgrade | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    require_approval: cdktf.booleanToTerraform(struct!.requireApproval),
    strategy: cdktf.stringToTerraform(struct!.strategy),
    timeout: cdktf.stringToTerraform(struct!.timeout),
  }
}


export function siteUpgradeToHclTerraform(struct?: SiteUpgrade | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    require_approval: {
      value: cdktf.booleanToHclTerraform(struct!.requireApproval),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    strategy: {
      value: cdktf.stringToHclTerraform(struct!.strategy),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    timeout: {
      value: cdktf.stringToHclTerraform(struct!.timeout),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class SiteUpgradeOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): SiteUpgrade | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._requireApproval !== undefined) {
      hasAnyValues = true;
      internalValueResult.requireApproval = this._requireApproval;
    }
    if (this._strategy !== undefined) {
      hasAnyValues = true;
      internalValueResult.strategy = this._strategy;
    }
    if (this._timeout !== undefined) {
      hasAnyValues = true;
      internalValueResult.timeout = this._timeout;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: SiteUpgrade | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._requireApproval = undefined;
      this._strategy = undefined;
      this._timeout = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._requireApproval = value.requireApproval;
      this._strategy = value.strategy;
      this._timeout = value.timeout;
    }
  }

  // require_approval - computed: false, optional: true, required: false
  private _requireApproval?: boolean | cdktf.IResolvable; 
  public get requireApproval() {
    return this.getBooleanAttribute('require_approval');
  }
  public set requireApproval(value: boolean | cdktf.IResolvable) {
    this._requireApproval = value;
  }
  public resetRequireApproval() {
    this._requireApproval = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get requireApprovalInput() {
    return this._requireApproval;
  }

  // strategy - computed: false, optional: true, required: false
  private _strategy?: string; 
  public get strategy() {
    return this.getStringAttribute('strategy');
  }
  public set strategy(value: string) {
    this._strategy = value;
  }
  public resetStrategy() {
    this._strategy = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get strategyInput() {
    return this._strategy;
  }

  // timeout - computed: false, optional: true, required: false
  private _timeout?: string; 
  public get timeout() {
    return this.getStringAttribute('timeout');
  }
  public set timeout(value: string) {
    this._timeout = value;
  }
  public resetTimeout() {
    this._timeout = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get timeoutInput() {
    return this._timeout;
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site siteops_site}
*/
export class Site extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "siteops_site";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Site resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Site to import
  * @param importFromId The id of the existing Site that should be imported. Refer to the {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs/resources/site#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Site to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "siteops_site", importId: importFromId, provider });
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
    this._deletionProtection = config.deletionProtection;
    this._name = config.name;
    this._phpVersion = config.phpVersion;
    this._url = config.url;
    this._wpVersion = config.wpVersion;
    this._upgrade.internalValue = config.upgrade;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // created_at - computed: true, optional: false, required: false
  public get createdAt() {
    return this.getStringAttribute('created_at');
  }

  // deletion_protection - computed: true, optional: true, required: false
  private _deletionProtection?: boolean | cdktf.IResolvable; 
  public get deletionProtection() {
    return this.getBooleanAttribute('deletion_protection');
  }
  public set deletionProtection(value: boolean | cdktf.IResolvable) {
    this._deletionProtection = value;
  }
  public resetDeletionProtection() {
    this._deletionProtection = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get deletionProtectionInput() {
    return this._deletionProtection;
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

  // upgrade - computed: false, optional: true, required: false
  private _upgrade = new SiteUpgradeOutputReference(this, "upgrade");
  public get upgrade() {
    return this._upgrade;
  }
  public putUpgrade(value: SiteUpgrade) {
    this._upgrade.internalValue = value;
  }
  public resetUpgrade() {
    this._upgrade.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get upgradeInput() {
    return this._upgrade.internalValue;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      deletion_protection: cdktf.booleanToTerraform(this._deletionProtection),
      name: cdktf.stringToTerraform(this._name),
      php_version: cdktf.stringToTerraform(this._phpVersion),
      url: cdktf.stringToTerraform(this._url),
      wp_version: cdktf.stringToTerraform(this._wpVersion),
      upgrade: siteUpgradeToTerraform(this._upgrade.internalValue),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      deletion_protection: {
        value: cdktf.booleanToHclTerraform(this._deletionProtection),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      php_version: {
        value: cdktf.stringToHclTerraform(this._phpVersion),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      url: {
        value: cdktf.stringToHclTerraform(this._url),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      wp_version: {
        value: cdktf.stringToHclTerraform(this._wpVersion),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      upgrade: {
        value: siteUpgradeToHclTerraform(this._upgrade.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "SiteUpgrade",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
