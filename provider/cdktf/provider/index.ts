// GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate` (scripts/generate-cdk.mjs):
// @cdktf/provider-generator 0.21.0 over the siteops provider's schema (provider/schema-json.ts).
// https://registry.terraform.io/providers/siteops/siteops/latest/docs
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface SiteopsProviderConfig {
  /**
  * API token (`sot_...`). May also be set with the `SITEOPS_API_TOKEN` environment variable. Conflicts with `email`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs#api_token SiteopsProvider#api_token}
  */
  readonly apiToken?: string;
  /**
  * URL of the Site Operations service, e.g. `https://siteops.example.com`. May also be set with the `SITEOPS_BASE_URL` environment variable.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs#base_url SiteopsProvider#base_url}
  */
  readonly baseUrl?: string;
  /**
  * Email of a user to log in as (JWT); requires `password`. Conflicts with `api_token`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs#email SiteopsProvider#email}
  */
  readonly email?: string;
  /**
  * Most API requests in flight at once from one provider process (Terraform's `-parallelism` decides how many resources it works on; this bounds the requests they make). Default 32, the API client's connection pool; env `SITEOPS_MAX_CONCURRENCY`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs#max_concurrency SiteopsProvider#max_concurrency}
  */
  readonly maxConcurrency?: number;
  /**
  * Retries of a failed request (connection errors, 408, 5xx; a 429 is waited out without counting here). Every API call ends at the latest the retry budget (60 s; env `SITEOPS_RETRY_BUDGET_MS`) plus `request_timeout` after it started, 429 waits included. Default 8; env `SITEOPS_MAX_RETRIES`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs#max_retries SiteopsProvider#max_retries}
  */
  readonly maxRetries?: number;
  /**
  * Current one-time code, for a user with two-factor authentication.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs#otp SiteopsProvider#otp}
  */
  readonly otp?: string;
  /**
  * Password of the `email` user.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs#password SiteopsProvider#password}
  */
  readonly password?: string;
  /**
  * Timeout of one request attempt, in seconds. Default 60; env `SITEOPS_TIMEOUT_MS` (milliseconds).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs#request_timeout SiteopsProvider#request_timeout}
  */
  readonly requestTimeout?: number;
  /**
  * Alias name
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs#alias SiteopsProvider#alias}
  */
  readonly alias?: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs siteops}
*/
export class SiteopsProvider extends cdktf.TerraformProvider {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "siteops";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a SiteopsProvider resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the SiteopsProvider to import
  * @param importFromId The id of the existing SiteopsProvider that should be imported. Refer to the {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the SiteopsProvider to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "siteops", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/siteops/siteops/latest/docs siteops} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options SiteopsProviderConfig = {}
  */
  public constructor(scope: Construct, id: string, config: SiteopsProviderConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'siteops',
      terraformGeneratorMetadata: {
        providerName: 'siteops'
      },
      terraformProviderSource: 'registry.terraform.io/siteops/siteops'
    });
    this._apiToken = config.apiToken;
    this._baseUrl = config.baseUrl;
    this._email = config.email;
    this._maxConcurrency = config.maxConcurrency;
    this._maxRetries = config.maxRetries;
    this._otp = config.otp;
    this._password = config.password;
    this._requestTimeout = config.requestTimeout;
    this._alias = config.alias;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // api_token - computed: false, optional: true, required: false
  private _apiToken?: string; 
  public get apiToken() {
    return this._apiToken;
  }
  public set apiToken(value: string | undefined) {
    this._apiToken = value;
  }
  public resetApiToken() {
    this._apiToken = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get apiTokenInput() {
    return this._apiToken;
  }

  // base_url - computed: false, optional: true, required: false
  private _baseUrl?: string; 
  public get baseUrl() {
    return this._baseUrl;
  }
  public set baseUrl(value: string | undefined) {
    this._baseUrl = value;
  }
  public resetBaseUrl() {
    this._baseUrl = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get baseUrlInput() {
    return this._baseUrl;
  }

  // email - computed: false, optional: true, required: false
  private _email?: string; 
  public get email() {
    return this._email;
  }
  public set email(value: string | undefined) {
    this._email = value;
  }
  public resetEmail() {
    this._email = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get emailInput() {
    return this._email;
  }

  // max_concurrency - computed: false, optional: true, required: false
  private _maxConcurrency?: number; 
  public get maxConcurrency() {
    return this._maxConcurrency;
  }
  public set maxConcurrency(value: number | undefined) {
    this._maxConcurrency = value;
  }
  public resetMaxConcurrency() {
    this._maxConcurrency = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maxConcurrencyInput() {
    return this._maxConcurrency;
  }

  // max_retries - computed: false, optional: true, required: false
  private _maxRetries?: number; 
  public get maxRetries() {
    return this._maxRetries;
  }
  public set maxRetries(value: number | undefined) {
    this._maxRetries = value;
  }
  public resetMaxRetries() {
    this._maxRetries = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maxRetriesInput() {
    return this._maxRetries;
  }

  // otp - computed: false, optional: true, required: false
  private _otp?: string; 
  public get otp() {
    return this._otp;
  }
  public set otp(value: string | undefined) {
    this._otp = value;
  }
  public resetOtp() {
    this._otp = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get otpInput() {
    return this._otp;
  }

  // password - computed: false, optional: true, required: false
  private _password?: string; 
  public get password() {
    return this._password;
  }
  public set password(value: string | undefined) {
    this._password = value;
  }
  public resetPassword() {
    this._password = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get passwordInput() {
    return this._password;
  }

  // request_timeout - computed: false, optional: true, required: false
  private _requestTimeout?: number; 
  public get requestTimeout() {
    return this._requestTimeout;
  }
  public set requestTimeout(value: number | undefined) {
    this._requestTimeout = value;
  }
  public resetRequestTimeout() {
    this._requestTimeout = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get requestTimeoutInput() {
    return this._requestTimeout;
  }

  // alias - computed: false, optional: true, required: false
  private _alias?: string; 
  public get alias() {
    return this._alias;
  }
  public set alias(value: string | undefined) {
    this._alias = value;
  }
  public resetAlias() {
    this._alias = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get aliasInput() {
    return this._alias;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      api_token: cdktf.stringToTerraform(this._apiToken),
      base_url: cdktf.stringToTerraform(this._baseUrl),
      email: cdktf.stringToTerraform(this._email),
      max_concurrency: cdktf.numberToTerraform(this._maxConcurrency),
      max_retries: cdktf.numberToTerraform(this._maxRetries),
      otp: cdktf.stringToTerraform(this._otp),
      password: cdktf.stringToTerraform(this._password),
      request_timeout: cdktf.numberToTerraform(this._requestTimeout),
      alias: cdktf.stringToTerraform(this._alias),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      api_token: {
        value: cdktf.stringToHclTerraform(this._apiToken),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      base_url: {
        value: cdktf.stringToHclTerraform(this._baseUrl),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      email: {
        value: cdktf.stringToHclTerraform(this._email),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      max_concurrency: {
        value: cdktf.numberToHclTerraform(this._maxConcurrency),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      max_retries: {
        value: cdktf.numberToHclTerraform(this._maxRetries),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      otp: {
        value: cdktf.stringToHclTerraform(this._otp),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      password: {
        value: cdktf.stringToHclTerraform(this._password),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      request_timeout: {
        value: cdktf.numberToHclTerraform(this._requestTimeout),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      alias: {
        value: cdktf.stringToHclTerraform(this._alias),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
