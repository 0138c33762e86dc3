// The deployment files (jobs/deploy) keep docs/design.md §1's schedule and §8's tomorrow: every quarter hour of the UTC day
// has a run, and each run from 15:00 on publishes tomorrow too (`run --tomorrow auto`, its default, or `yes`),
// none before. The crontab is read by a small parser of its five fields (numbers, ranges, steps, `*`). The systemd
// units pass `systemd-analyze verify` (systemd's own parser; no service manager runs here, so none is started), and the
// Kubernetes objects validate against the API's schemas (kubernetes-models; no cluster runs here).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Deployment } from "kubernetes-models/apps/v1";
import { CronJob } from "kubernetes-models/batch/v1";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { ROOT, tempDir } from "../helpers.js";
import { io } from "./io.js";

const DEPLOY = path.join(ROOT, "jobs/deploy");
const read = (file: string) => readFileSync(path.join(DEPLOY, file), "utf8");

/** The values a crontab field takes in [0, max]. */
function field(text: string, max: number): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(",")) {
    const [range = "", step = "1"] = part.split("/");
    const [lo, hi] = range === "*" ? [0, max] : range.includes("-") ? range.split("-").map(Number) : [+range, +range];
    for (let v = lo!; v <= hi!; v += Number(step)) out.add(v);
  }
  return out;
}

/** `run` publishes tomorrow at minute `m` of the day with these arguments (jobs/commands/run.ts: auto from 15:00). */
function publishesTomorrow(args: readonly string[], m: number): boolean {
  const i = args.indexOf("--tomorrow");
  const flag = i < 0 ? "auto" : args[i + 1];
  return flag === "yes" || (flag === "auto" && m >= 15 * 60);
}

describe("jobs/deploy", () => {
  it("crontab: a run every quarter hour, publishing tomorrow from 15:00 UTC and never before", () => {
    const runs = new Map<number, boolean[]>();
    for (const line of read("crontab").split("\n")) {
      const m = /^(\S+)\s+(\S+)\s+\*\s+\*\s+\*\s+(airspace-publisher run .*)$/.exec(line);
      if (!m) continue;
      const args = m[3]!.split(/\s+/);
      for (const h of field(m[2]!, 23))
        for (const min of field(m[1]!, 59)) {
          const at = h * 60 + min;
          runs.set(at, [...(runs.get(at) ?? []), publishesTomorrow(args, at)]);
        }
    }
    for (let at = 0; at < 24 * 60; at += 15) {
      expect(runs.get(at), `a run at minute ${at}`).toBeDefined();
      expect(runs.get(at)!.some(Boolean), `tomorrow at ${Math.floor(at / 60)}:${at % 60}`).toBe(at >= 15 * 60);
    }
    expect([...runs.keys()]).toEqual(expect.arrayContaining([5, 6 * 60 + 20]));
  });

  it("systemd: the timer's quarter hours start a run whose tomorrow is auto", () => {
    const timer = read("systemd/airspace-publisher.timer");
    expect(timer).toMatch(/^OnCalendar=\*-\*-\* \*:00,15,30,45:00 UTC$/m);
    const exec = /^ExecStart=.*'exec (airspace-publisher run [^']*)'$/m.exec(
      read("systemd/airspace-publisher.service"),
    );
    const args = exec![1]!.split(/\s+/);
    expect([publishesTomorrow(args, 14 * 60 + 45), publishesTomorrow(args, 15 * 60)]).toEqual([false, true]);
  });

  it("Kubernetes: the refresh CronJob runs every 15 minutes with tomorrow auto", () => {
    const jobs = parseAllDocuments(read("kubernetes/cronjob.yaml")).map((d) => d.toJS());
    const refresh = jobs.find((j) => j.metadata.name === "airspace-publisher-refresh");
    expect(refresh.spec.schedule).toBe("*/15 * * * *");
    expect(refresh.spec.timeZone).toBe("Etc/UTC");
    const args: string[] = refresh.spec.jobTemplate.spec.template.spec.containers[0].args;
    expect([publishesTomorrow(args, 14 * 60 + 45), publishesTomorrow(args, 15 * 60)]).toEqual([false, true]);
    expect(jobs).toHaveLength(3);
  });

  it("systemd: every unit passes systemd-analyze verify without a warning", () => {
    const units = readdirSync(path.join(DEPLOY, "systemd")).map((f) => path.join(DEPLOY, "systemd", f));
    expect(units).toHaveLength(3);
    const r = spawnSync("systemd-analyze", ["verify", ...units], { encoding: "utf8" });
    expect(r.error, "systemd-analyze (scripts/system-deps.sh installs systemd)").toBeUndefined();
    expect([r.status, r.stderr.trim()]).toEqual([0, ""]);
  });

  it("systemd-analyze verify finds a misspelt value: the check above can fail", () => {
    const dir = tempDir("deploy-unit-");
    const unit = path.join(dir, "airspace-publisher-watch.service");
    writeFileSync(unit, read("systemd/airspace-publisher-watch.service").replace("Restart=always", "Restart=alway"));
    const r = spawnSync("systemd-analyze", ["verify", unit], { encoding: "utf8" });
    expect(r.stderr).toMatch(/restart specifier/);
  });

  it("Kubernetes: the watch Deployment and the CronJobs validate against the API's schemas", () => {
    const docs = (file: string) => parseAllDocuments(read(file)).map((d) => d.toJS());
    for (const d of docs("kubernetes/watch.yaml")) expect(() => new Deployment(d).validate()).not.toThrow();
    for (const j of docs("kubernetes/cronjob.yaml")) expect(() => new CronJob(j).validate()).not.toThrow();
    const [bad] = docs("kubernetes/watch.yaml");
    bad.spec.template.spec.containers[0].livenessProbe.httpGet.port = ["metrics"];
    expect(() => new Deployment(bad).validate()).toThrow(/httpGet\/port/);
  });

  it("Kubernetes: every container runs the image make image builds, as its non-root user with a read-only root", () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    const image = /-t "\$image"/.test(readFileSync(path.join(ROOT, "scripts", "image.sh"), "utf8"));
    expect(image).toBe(true);
    const pods = [
      ...parseAllDocuments(read("kubernetes/watch.yaml")).map((d) => d.toJS().spec.template.spec),
      ...parseAllDocuments(read("kubernetes/cronjob.yaml")).map((d) => d.toJS().spec.jobTemplate.spec.template.spec),
    ];
    expect(pods).toHaveLength(4);
    for (const pod of pods) {
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
      for (const c of pod.containers) {
        expect(c.image).toBe(`airspace-publisher:${version}`);
        expect(c.securityContext).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ["ALL"] },
        });
        // the read-only root leaves /tmp to a volume of its own
        expect(c.volumeMounts.map((m: { mountPath: string }) => m.mountPath)).toContain("/tmp");
      }
    }
    // the systemd units show the same image's run beside npx's
    for (const unit of ["airspace-publisher.service", "airspace-publisher-watch.service"]) {
      expect(read(`systemd/${unit}`)).toContain(`podman run --rm --name %N --network host --read-only`);
      expect(read(`systemd/${unit}`)).toContain(`airspace-publisher:${version}`);
    }
    // the Containerfile's user is the one the manifests run as
    expect(readFileSync(path.join(ROOT, "Containerfile"), "utf8")).toMatch(/^USER 10001:10001$/m);
  });

  it("watch: systemd restarts it always and stops it with SIGTERM; Kubernetes runs one replica with /healthz probes", async () => {
    const unit = read("systemd/airspace-publisher-watch.service");
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    const exec = /^ExecStart=.*'exec (airspace-publisher watch [^']*)'$/m.exec(unit)![1]!.split(/\s+/);
    const [deployment] = parseAllDocuments(read("kubernetes/watch.yaml")).map((d) => d.toJS());
    expect(deployment.kind).toBe("Deployment");
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy.type).toBe("Recreate");
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    const port = container.args[container.args.indexOf("--metrics-port") + 1];
    for (const probe of [container.livenessProbe, container.readinessProbe]) {
      expect(probe.httpGet.path).toBe("/healthz");
      expect(container.ports.find((p: { name: string }) => p.name === probe.httpGet.port).containerPort).toBe(+port);
    }
    // every flag they give is one of watch's own
    const { main } = await import("../../jobs/cli.js");
    const t = io();
    expect(await main(["watch", "--help"], t.io)).toBe(0);
    for (const args of [exec.slice(1), container.args]) {
      const flags = (args as string[]).filter((a) => a.startsWith("--"));
      expect(flags.length).toBeGreaterThanOrEqual(3);
      for (const flag of flags) expect(t.out(), flag).toContain(`${flag} <`);
    }
  });
});
