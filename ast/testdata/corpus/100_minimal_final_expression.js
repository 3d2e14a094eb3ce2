(await tools.time.now({ tz: "Asia/Tokyo" })).iso
