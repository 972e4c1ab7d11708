// The tfplugin6 messages the provider reads and writes, as protobuf.ts decodes and encodes them (field names
// exactly as in tfplugin6.proto), and the Provider service a server implements (terraform-plugin-go's
// tfprotov6.ProviderServer). The wire's own terms only: what the values mean is the framework's business.

/** A value as Terraform sends it in a request: msgpack, or JSON (the protocol allows either); absent is null. */
export interface ReceivedDynamicValue {
  msgpack?: Uint8Array | null;
  json?: Uint8Array | null;
}

/** A value as the provider writes it in a reply. */
export interface DynamicValue {
  msgpack?: Uint8Array;
  json?: Uint8Array;
}

type Received = ReceivedDynamicValue | null | undefined;

/** One step of an AttributePath: exactly one of the three is set (a oneof). */
interface AttributePathStep {
  attribute_name?: string;
  element_key_string?: string;
  element_key_int?: number | bigint;
}

export interface AttributePath {
  steps: AttributePathStep[];
}

export interface Diagnostic {
  /** Diagnostic.Severity: 1 error, 2 warning. */
  severity: number;
  summary: string;
  detail: string;
  attribute?: AttributePath;
}

export interface ValidateProviderConfigRequest {
  config?: Received;
}

/** ValidateResourceConfig, ValidateDataResourceConfig and ReadDataSource: a type's configuration. */
export interface ConfigRequest {
  type_name: string;
  config?: Received;
}

export interface ConfigureProviderRequest {
  terraform_version?: string;
  config?: Received;
}

export interface UpgradeResourceStateRequest {
  type_name: string;
  /** int64: a number, or a bigint beyond 2^53. */
  version?: number | bigint;
  raw_state?: { json?: Uint8Array | null; flatmap?: Record<string, string> } | null;
}

export interface ReadResourceRequest {
  type_name: string;
  current_state?: Received;
  private?: Uint8Array | null;
}

export interface PlanResourceChangeRequest {
  type_name: string;
  prior_state?: Received;
  proposed_new_state?: Received;
  config?: Received;
  prior_private?: Uint8Array | null;
}

export interface ApplyResourceChangeRequest {
  type_name: string;
  prior_state?: Received;
  planned_state?: Received;
  config?: Received;
  planned_private?: Uint8Array | null;
}

export interface ImportResourceStateRequest {
  type_name: string;
  id: string;
}

export interface CallFunctionRequest {
  name: string;
  arguments?: Received[];
}

/** A reply: the Response message of the RPC, as a plain object for protobuf.ts to encode. */
type Reply = object | Promise<object>;

/** The tfplugin6.Provider service: one method per RPC (rpc-server.ts routes each call to its method). */
export interface ProviderService {
  getMetadata(): Reply;
  getProviderSchema(): Reply;
  validateProviderConfig(req: ValidateProviderConfigRequest): Reply;
  validateResourceConfig(req: ConfigRequest): Reply;
  validateDataResourceConfig(req: ConfigRequest): Reply;
  upgradeResourceState(req: UpgradeResourceStateRequest): Reply;
  configureProvider(req: ConfigureProviderRequest): Reply;
  readResource(req: ReadResourceRequest): Reply;
  planResourceChange(req: PlanResourceChangeRequest): Reply;
  applyResourceChange(req: ApplyResourceChangeRequest): Reply;
  importResourceState(req: ImportResourceStateRequest): Reply;
  readDataSource(req: ConfigRequest): Reply;
  getFunctions(): Reply;
  callFunction(req: CallFunctionRequest): Reply;
  stopProvider(): Reply;
}
