// govmomi-reader: the reference side of `npm run bench -- vim25`. It reads every VirtualMachine
// of a vCenter the way libs/vim25's readVirtualMachines does (CreateContainerView,
// RetrievePropertiesEx + ContinueRetrievePropertiesEx with the same property paths, DestroyView)
// and decodes the answer into govmomi's typed mo.VirtualMachine, as a govmomi program would.
//
// It logs in once, then does one timed read per non-blank line on stdin (or -runs reads without
// stdin) and prints one JSON line per read:
//
//	{"vms":550,"devices":7150,"seconds":0.29,"rss_mb":10,"rss_growth_mb":3.1}
//
// rss_growth_mb is the peak RSS during the read (VmHWM, reset through /proc/self/clear_refs just
// before it) less the RSS before it: the measure the bench takes of our reader too.
//
// Built in GOPATH mode from Debian's golang-github-vmware-govmomi-dev by build.sh beside it; no
// module proxy needed, the binary stays in .cache/.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/vmware/govmomi/session"
	"github.com/vmware/govmomi/vim25"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

// The paths of VM_PATHS in libs/vim25/src/inventory/vm-readers.ts (the bench checks they match).
var vmPaths = []string{
	"name",
	"runtime.powerState",
	"runtime.host",
	"config.hardware.numCPU",
	"config.hardware.numCoresPerSocket",
	"config.hardware.memoryMB",
	"config.hardware.device",
	"config.template",
	"config.uuid",
	"config.instanceUuid",
	"guest.toolsRunningStatus",
	"config.tools.toolsInstallType",
	"guest.guestState",
	"resourcePool",
	"parent",
	"snapshot",
	"runtime.consolidationNeeded",
}

type result struct {
	VMs         int     `json:"vms"`
	Devices     int     `json:"devices"`
	Seconds     float64 `json:"seconds"`
	RSSMB       float64 `json:"rss_mb"`
	RSSGrowthMB float64 `json:"rss_growth_mb"`
}

// procStatusKB reads a "VmRSS:"-style line of /proc/self/status, in kB.
func procStatusKB(field string) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field+":") {
			f := strings.Fields(line[len(field)+1:])
			if len(f) > 0 {
				n, _ := strconv.ParseFloat(f[0], 64)
				return n
			}
		}
	}
	return 0
}

// readVMs is one read: view, RetrievePropertiesEx pages, DestroyView, typed decoding.
func readVMs(ctx context.Context, c *vim25.Client) ([]mo.VirtualMachine, error) {
	view, err := methods.CreateContainerView(ctx, c, &types.CreateContainerView{
		This: *c.ServiceContent.ViewManager, Container: c.ServiceContent.RootFolder,
		Type: []string{"VirtualMachine"}, Recursive: true,
	})
	if err != nil {
		return nil, err
	}
	defer func() { _, _ = methods.DestroyView(ctx, c, &types.DestroyView{This: view.Returnval}) }()
	spec := types.PropertyFilterSpec{
		PropSet: []types.PropertySpec{{Type: "VirtualMachine", PathSet: vmPaths}},
		ObjectSet: []types.ObjectSpec{{
			Obj: view.Returnval, Skip: types.NewBool(true),
			SelectSet: []types.BaseSelectionSpec{&types.TraversalSpec{
				SelectionSpec: types.SelectionSpec{Name: "traverseView"}, Type: "ContainerView", Path: "view",
			}},
		}},
	}
	pc := c.ServiceContent.PropertyCollector
	res, err := methods.RetrievePropertiesEx(ctx, c, &types.RetrievePropertiesEx{
		This: pc, SpecSet: []types.PropertyFilterSpec{spec}, Options: types.RetrieveOptions{MaxObjects: 1000},
	})
	if err != nil {
		return nil, err
	}
	var content []types.ObjectContent
	for page := res.Returnval; page != nil; {
		content = append(content, page.Objects...)
		if page.Token == "" {
			break
		}
		next, err := methods.ContinueRetrievePropertiesEx(ctx, c, &types.ContinueRetrievePropertiesEx{This: pc, Token: page.Token})
		if err != nil {
			return nil, err
		}
		page = &next.Returnval
	}
	var vms []mo.VirtualMachine
	return vms, mo.LoadObjectContent(content, &vms)
}

func main() {
	rawURL := flag.String("url", "", "vCenter URL, https://host:port")
	ca := flag.String("ca", "", "PEM file of the CA to trust (verification stays on)")
	user := flag.String("user", "user", "user name")
	pass := flag.String("pass", "pass", "password")
	runs := flag.Int("runs", 0, "reads to do without stdin (0: one read per stdin line)")
	flag.Parse()

	ctx := context.Background()
	u, err := soap.ParseURL(*rawURL)
	if err != nil {
		log.Fatal(err)
	}
	sc := soap.NewClient(u, false)
	if *ca != "" {
		if err := sc.SetRootCAs(*ca); err != nil {
			log.Fatal(err)
		}
	}
	c, err := vim25.NewClient(ctx, sc)
	if err != nil {
		log.Fatal(err)
	}
	sm := session.NewManager(c)
	if err := sm.Login(ctx, url.UserPassword(*user, *pass)); err != nil {
		log.Fatal(err)
	}
	defer func() { _ = sm.Logout(ctx) }()

	out := json.NewEncoder(os.Stdout)
	once := func() {
		before := procStatusKB("VmRSS")
		_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // resets VmHWM to VmRSS
		start := time.Now()
		vms, err := readVMs(ctx, c)
		seconds := time.Since(start).Seconds()
		if err != nil {
			log.Fatal(err)
		}
		devices := 0
		for _, vm := range vms {
			if vm.Config != nil {
				devices += len(vm.Config.Hardware.Device)
			}
		}
		growth := (procStatusKB("VmHWM") - before) / 1024
		if err := out.Encode(result{VMs: len(vms), Devices: devices, Seconds: seconds, RSSMB: before / 1024, RSSGrowthMB: growth}); err != nil {
			log.Fatal(err)
		}
	}
	if *runs > 0 {
		for i := 0; i < *runs; i++ {
			once()
		}
		return
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if strings.TrimSpace(in.Text()) != "" { // any non-blank line asks for one read
			once()
		}
	}
	fmt.Fprintln(os.Stderr, "govmomi-reader: stdin closed, logging out")
}
