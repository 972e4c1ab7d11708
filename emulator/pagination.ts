// ?page= / ?per_page= and the Link, Current-Page, Page-Limit, Total-Pages, Total-Count headers
// (docs/design.md section 2). A page past the end is 200 []; a page that is not a positive integer is 400.
// The `minimal` profile (profile.ts) pages by a fixed size, ignores per_page and sends none of the headers.
import type { FastifyReply, FastifyRequest } from "fastify";
import { badRequest } from "./errors.js";
import type { PageSource } from "./store/db.js";
import type { Listener } from "./context.js";

const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;

interface PageParams {
  page: number;
  perPage: number;
  offset: number;
  /** True when the page is so far out that no row can be on it (avoids overflow in OFFSET). */
  beyond: boolean;
}

function positiveInt(name: string, raw: unknown): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const s = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (typeof s !== "string" && typeof s !== "number") throw badRequest(`${name} must be a positive integer`);
  const text = String(s);
  if (!/^[0-9]+$/.test(text) || /^0+$/.test(text)) throw badRequest(`${name} must be a positive integer`);
  // Absurdly large numbers are valid pages that are simply past the end.
  return text.length > 15 ? Number.MAX_SAFE_INTEGER : Number(text);
}

function pageParams(query: Record<string, unknown>, fixedPageSize: number | null): PageParams {
  const page = positiveInt("page", query.page) ?? 1;
  const perPage = fixedPageSize ?? Math.min(positiveInt("per_page", query.per_page) ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
  const offset = (page - 1) * perPage;
  return { page, perPage, offset, beyond: !Number.isSafeInteger(offset) || offset > 2 ** 53 / 2 };
}

export type { PageSource } from "./store/db.js";

/**
 * Runs the page query and sets the pagination headers; returns the body array. Links are absolute on the
 * emulator's public URL (the app's `listener` decoration, app.ts), or relative before it listens; never built from the request's Host
 * header, which any client may set (a reflected foreign host would send the next page request elsewhere).
 * Page size and headers as the app's `profile` decoration says.
 */
export function paginate<T>(req: FastifyRequest, reply: FastifyReply, source: PageSource<T>): T[] {
  const { pagination } = req.server.profile;
  const p = pageParams(req.query as Record<string, unknown>, pagination.fixedPageSize);
  const total = source.count();
  const rows = p.beyond || p.offset >= total ? [] : source.rows(p.perPage, p.offset);
  if (!pagination.headers) return rows;
  const totalPages = Math.max(1, Math.ceil(total / p.perPage));

  const url = new URL(req.url, "http://relative.invalid");
  const prefix = (req.server as { listener?: Listener }).listener?.publicUrl ?? "";
  const link = (page: number, rel: string): string => {
    url.searchParams.set("page", String(page));
    url.searchParams.set("per_page", String(p.perPage));
    return `<${prefix}${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links = [link(1, "first")];
  if (p.page > 1) links.push(link(Math.min(p.page - 1, totalPages), "prev"));
  if (p.page < totalPages) links.push(link(p.page + 1, "next"));
  links.push(link(totalPages, "last"));

  reply.header("Link", links.join(", "));
  reply.header("Current-Page", String(p.page));
  reply.header("Page-Limit", String(p.perPage));
  reply.header("Total-Pages", String(totalPages));
  reply.header("Total-Count", String(total));
  return rows;
}
