/** Shapes of the admin API, generated from openapi/admin.yaml. Never written by hand. */
import type { components } from "../../../openapi/generated/admin.js";

type Schemas = components["schemas"];
export type Accepted = Schemas["Accepted"];
export type AdminBlog = Schemas["AdminBlog"];
export type ApiKeyView = Schemas["ApiKey"];
export type BlogInput = Schemas["BlogInput"];
export type BlogPatch = Schemas["BlogPatch"];
export type BodyPreview = Schemas["BodyPreview"];
export type BodyPreviewRequest = Schemas["BodyPreviewRequest"];
export type Me = Schemas["Me"];
export type Member = Schemas["Member"];
export type MintedKey = Schemas["MintedKey"];
export type SessionStatus = Schemas["SessionStatus"];
export type SetupRequest = Schemas["SetupRequest"];
export type SignInRequest = Schemas["SignInRequest"];
export type Workspace = Schemas["Workspace"];
export type WorkspaceInput = Schemas["WorkspaceInput"];
