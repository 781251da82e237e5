/**
 * @module What the console's pages read from the objects: a tenant with its mapping, and each
 * environment's budget. The list and the actions are the admin API's own calls.
 */
import type { GovernorBudget } from "../upstream/rate-governor";
import { Environment, readConfig, type Bindings } from "../kernel/config";
import { unwrap } from "../kernel/outcome";
import { Problem } from "../kernel/problem";
import { asOperator, governorStub, tenantName } from "../kernel/stubs";
import { formOfMapping } from "./mapping-form";

/**
 * A tenant's description, its mapping as the form's values, and its shops' bindings; a 404 problem
 * when there is no such tenant.
 */
export async function tenantWithMapping(env: Bindings, environment: Environment, client: string) {
  const [tenant, mapping, shops] = await asOperator(env, tenantName(environment, client), (face) =>
    Promise.all([face.describe(), face.orderMapping(), face.shops()]),
  );
  if (!tenant)
    throw new Problem("not-found", `There is no tenant ${tenantName(environment, client)}.`);
  return { tenant, mapping: formOfMapping(unwrap(mapping)), shops: unwrap(shops) };
}

/** Each environment's budget, with the limit it is paced to. */
export async function budgets(
  env: Bindings,
): Promise<{ environment: Environment; limit: number; budget: GovernorBudget }[]> {
  const limit = readConfig(env).rateLimitPerSecond;
  return Promise.all(
    Environment.options.map(async (environment) => ({
      environment,
      limit,
      budget: await governorStub(env, environment).budget(),
    })),
  );
}
